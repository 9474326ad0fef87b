/* Causal prefill with scores materialised, the max seeded from S[0] and the max loop from 1
 * up to i (key 0 is always visible in causal attention). bf16, D = 64, run-time N. */
#include <math.h>
#include "fusecc.h"

void causal_seed_s0(int B, int H, int N, const fusecc_bf16 q[B][H][N][64], const fusecc_bf16 k[B][H][N][64],
		    const fusecc_bf16 v[B][H][N][64], fusecc_bf16 o[B][H][N][64])
{
#pragma fuse kernel(causal_seed_s0) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float S[N];
				for (int j = 0; j <= i; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++)
						t += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					S[j] = t * 0.125f;
				}
				float mx = S[0];
				for (int j = 1; j <= i; j++)
					if (S[j] > mx) mx = S[j];
				float sum = 0.0f;
				for (int j = 0; j <= i; j++) { S[j] = expf(S[j] - mx); sum += S[j]; }
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) acc += S[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(acc / sum);
				}
			}
}
