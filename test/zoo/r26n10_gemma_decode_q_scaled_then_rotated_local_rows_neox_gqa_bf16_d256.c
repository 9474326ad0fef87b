/* Gemma 2 decode as a port of its PyTorch eager path to C: the query is first multiplied by
 * query_pre_attn_scalar^-1/2 (no scale on the scores), then rotated (NeoX rotate_half, cos/sin
 * from a [max_pos][256] cache holding each half twice, as HF's cos/sin), each step into its own
 * local row before the key loop; the bf16 KV cache holds keys rotated when written. GQA by
 * h / G, D = 256, a three-loop softmax over kv_len[b] keys. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void gemma_decode(int B, int H, int G, int S, int max_pos, const int32_t pos[B], const int32_t kv_len[B],
		  const float cos_c[max_pos][256], const float sin_c[max_pos][256], const fusecc_bf16 q[B][H][256],
		  const fusecc_bf16 k_cache[B][H / G][S][256], const fusecc_bf16 v_cache[B][H / G][S][256],
		  fusecc_bf16 o[B][H][256])
{
#pragma fuse kernel(gemma_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float qs[256], qe[256];
			for (int d = 0; d < 256; d++)
				qs[d] = fusecc_bf16_to_float(q[b][h][d]) * 0.0625f; /* query_pre_attn_scalar = 256 */
			for (int d = 0; d < 128; d++) {
				qe[d] = qs[d] * cos_c[pos[b]][d] - qs[d + 128] * sin_c[pos[b]][d];
				qe[d + 128] = qs[d + 128] * cos_c[pos[b]][d + 128] + qs[d] * sin_c[pos[b]][d + 128];
			}
			float sc[S];
			float mx = -INFINITY;
			for (int j = 0; j < kv_len[b]; j++) {
				float dot = 0.0f;
				for (int d = 0; d < 256; d++)
					dot += qe[d] * fusecc_bf16_to_float(k_cache[b][h / G][j][d]);
				sc[j] = dot;
				mx = fmaxf(mx, dot);
			}
			float den = 0.0f;
			for (int j = 0; j < kv_len[b]; j++)
				den += expf(sc[j] - mx);
			for (int d = 0; d < 256; d++) {
				float a = 0.0f;
				for (int j = 0; j < kv_len[b]; j++)
					a += expf(sc[j] - mx) * fusecc_bf16_to_float(v_cache[b][h / G][j][d]);
				o[b][h][d] = fusecc_float_to_bf16(a / den);
			}
		}
}
