/* Decode where the query stays fp32 (computed in fp32 by the projection) but the KV cache is bf16;
 * output fp32; GQA by h / G. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void mixed_decode(int B, int H, int G, int T, const int32_t kv_len[B], const float q[B][H][128],
		  const fusecc_bf16 kc[B][H / G][T][128], const fusecc_bf16 vc[B][H / G][T][128], float o[B][H][128])
{
#pragma fuse kernel(mixed_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			for (int t = 0; t < kv_len[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += q[b][h][d] * fusecc_bf16_to_float(kc[b][h / G][t][d]);
				s *= 0.08838834764831845f;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(vc[b][h / G][t][d]);
				m = mn;
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = acc[d] / l;
		}
}
