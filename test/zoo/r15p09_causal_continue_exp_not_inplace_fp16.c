/* Probe for n01's refusal: the same causal `continue` in every loop, but the exponentials not
 * stored back into scores (P.V recomputes expf(scores - max)). */
#include <math.h>

void sdpa_cont(int B, int S, int H, const _Float16 q[B][S][H][64], const _Float16 k[B][S][H][64],
	       const _Float16 v[B][S][H][64], _Float16 out[B][S][H][64])
{
#pragma fuse kernel(sdpa_cont) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < S; i++) {
				float scores[S];
				float row_max = -INFINITY;
				for (int j = 0; j < S; j++) {
					if (j > i) continue;
					float dot = 0.0f;
					for (int d = 0; d < 64; d++) dot += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					scores[j] = dot * 0.125f;
					row_max = fmaxf(row_max, scores[j]);
				}
				float denom = 0.0f;
				for (int j = 0; j < S; j++) {
					if (j > i) continue;
					denom += expf(scores[j] - row_max);
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < S; j++) {
						if (j > i) continue;
						acc += expf(scores[j] - row_max) * (float)v[b][j][h][d];
					}
					out[b][i][h][d] = (_Float16)(acc / denom);
				}
			}
}
