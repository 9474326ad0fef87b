/* Chunked prefill against a contiguous KV cache, as a serving engine's reference path
 * writes it: the chunk's T queries sit at positions P .. P + T - 1; the keys before the
 * chunk are read from the cache (kc, vc), the chunk's own from k, v, causal among the
 * chunk. Three passes (max, sum, weighted values), each one loop per source. bf16, D = 128. */
#include <math.h>
#include "fusecc.h"

void chunked_prefill(int B, int H, int P, int T, float scale, const fusecc_bf16 q[B][H][T][128],
		     const fusecc_bf16 kc[B][H][P][128], const fusecc_bf16 vc[B][H][P][128],
		     const fusecc_bf16 k[B][H][T][128], const fusecc_bf16 v[B][H][T][128], fusecc_bf16 o[B][H][T][128])
{
#pragma fuse kernel(chunked_prefill) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < T; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < P; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(kc[b][h][j][d]);
					mx = fmaxf(mx, s * scale);
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					mx = fmaxf(mx, s * scale);
				}
				float sum = 0.0f;
				for (int j = 0; j < P; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(kc[b][h][j][d]);
					sum += expf(s * scale - mx);
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					sum += expf(s * scale - mx);
				}
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j < P; j++) {
						float s = 0.0f;
						for (int e = 0; e < 128; e++)
							s += fusecc_bf16_to_float(q[b][h][i][e]) * fusecc_bf16_to_float(kc[b][h][j][e]);
						acc += expf(s * scale - mx) / sum * fusecc_bf16_to_float(vc[b][h][j][d]);
					}
					for (int j = 0; j <= i; j++) {
						float s = 0.0f;
						for (int e = 0; e < 128; e++)
							s += fusecc_bf16_to_float(q[b][h][i][e]) * fusecc_bf16_to_float(k[b][h][j][e]);
						acc += expf(s * scale - mx) / sum * fusecc_bf16_to_float(v[b][h][j][d]);
					}
					o[b][h][i][d] = fusecc_float_to_bf16(acc);
				}
			}
}
