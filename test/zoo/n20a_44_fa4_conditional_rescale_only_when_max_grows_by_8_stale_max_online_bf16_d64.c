/* FlashAttention-4's conditional rescaling written per key: the running max used for the exponentials is
 * only moved (and l, acc rescaled) when a score exceeds it by more than 8 (log2 256); otherwise p = exp(s - m)
 * with the stale m (p may exceed 1, up to e^8). Exact after the final division. bf16, bidirectional. */
#include <math.h>
#include "fusecc.h"
void fa4_cond(int B, int H, int N, const fusecc_bf16 q[B][H][N][64], const fusecc_bf16 k[B][H][N][64], const fusecc_bf16 v[B][H][N][64],
	      fusecc_bf16 o[B][H][N][64])
{
#pragma fuse kernel(fa4_cond) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s *= 0.125f;
					if (s > m + 8.0f) {
						const float c = expf(m - s);
						l *= c;
						for (int d = 0; d < 64; d++) acc[d] *= c;
						m = s;
					}
					const float p = expf(s - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
