/* Qwen3 decode where the keys were normalised (k_norm) and rotated before caching, so the region
 * only applies q_norm: RMSNorm of the q row with weights into a local (a reduction over d before
 * the key loop), then a GQA decode over kv_len[b] keys, bf16 cache [B][KVH][S][128]. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void qwen3_qnorm_decode(int B, int H, int KVH, int S, const int32_t kv_len[B], const fusecc_bf16 q[B][H][128],
			const float q_norm_w[128], const fusecc_bf16 kc[B][KVH][S][128], const fusecc_bf16 vc[B][KVH][S][128],
			fusecc_bf16 o[B][H][128])
{
#pragma fuse kernel(qwen3_qnorm_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float ss = 0.0f;
			for (int d = 0; d < 128; d++) {
				const float x = fusecc_bf16_to_float(q[b][h][d]);
				ss += x * x;
			}
			const float r = 1.0f / sqrtf(ss / 128.0f + 1e-6f);
			float qn[128];
			for (int d = 0; d < 128; d++) qn[d] = fusecc_bf16_to_float(q[b][h][d]) * r * q_norm_w[d];
			float sc[S], mx = -INFINITY;
			for (int j = 0; j < kv_len[b]; j++) {
				float dot = 0.0f;
				for (int d = 0; d < 128; d++) dot += qn[d] * fusecc_bf16_to_float(kc[b][h / (H / KVH)][j][d]);
				sc[j] = dot * 0.08838834764831845f;
				mx = fmaxf(mx, sc[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < kv_len[b]; j++) l += expf(sc[j] - mx);
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int j = 0; j < kv_len[b]; j++) acc += expf(sc[j] - mx) * fusecc_bf16_to_float(vc[b][h / (H / KVH)][j][d]);
				o[b][h][d] = fusecc_float_to_bf16(acc / l);
			}
		}
}
