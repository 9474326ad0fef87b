/* Qwen3's decode written out in C for a CPU fallback: q_norm (RMSNorm over the head's 128 values
 * with learned weights, eps 1e-6) and then RoPE (NeoX halves, cos/sin [max_pos][64]) applied to
 * the query only, in that order, into a local row before the key loop; the keys were normed and
 * rotated when cached. bf16 cache, GQA by h / (H / KVH), seq_lens[b] keys, online softmax. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void qwen3_decode(int B, int H, int KVH, int S, int max_pos, const int32_t positions[B], const int32_t seq_lens[B],
		  const fusecc_bf16 q[B][H][128], const fusecc_bf16 q_norm_w[128], const float cos_t[max_pos][64],
		  const float sin_t[max_pos][64], const fusecc_bf16 kc[B][KVH][S][128], const fusecc_bf16 vc[B][KVH][S][128],
		  fusecc_bf16 out[B][H][128])
{
#pragma fuse kernel(qwen3_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kv = h / (H / KVH);
			float var = 0.0f;
			for (int d = 0; d < 128; d++) {
				float x = fusecc_bf16_to_float(q[b][h][d]);
				var += x * x;
			}
			const float inv = 1.0f / sqrtf(var / 128.0f + 1e-6f);
			float qrot[128];
			for (int d = 0; d < 64; d++) {
				float a = fusecc_bf16_to_float(q[b][h][d]) * inv * fusecc_bf16_to_float(q_norm_w[d]);
				float c = fusecc_bf16_to_float(q[b][h][d + 64]) * inv * fusecc_bf16_to_float(q_norm_w[d + 64]);
				qrot[d] = a * cos_t[positions[b]][d] - c * sin_t[positions[b]][d];
				qrot[d + 64] = c * cos_t[positions[b]][d] + a * sin_t[positions[b]][d];
			}
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < seq_lens[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += qrot[d] * fusecc_bf16_to_float(kc[b][kv][j][d]);
				s *= 0.08838834764831845f;
				float mn = fmaxf(m, s), cr = expf(m - mn), p = expf(s - mn);
				l = l * cr + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * cr + p * fusecc_bf16_to_float(vc[b][kv][j][d]);
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				out[b][h][d] = fusecc_float_to_bf16(acc[d] / l);
		}
}
