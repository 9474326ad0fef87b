/* Chunked prefill against a KV cache that already holds P past tokens: Nk = P + Nq keys,
 * query i sits at position P + i, so it sees keys j <= i + P. GQA by h / G, head dim 64. */
#include <math.h>

void prefill_with_past(int B, int H, int G, int Nq, int P, const _Float16 q[B][H][Nq][64],
		       const _Float16 k[B][H / G][P + Nq][64], const _Float16 v[B][H / G][P + Nq][64],
		       _Float16 o[B][H][Nq][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(prefill_with_past) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Nq; i++) {
				const int g = h / G;
				float m = -INFINITY, l = 0.0f;
				for (int j = 0; j <= i + P; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][g][j][d];
					m = fmaxf(m, s * scale);
				}
				for (int j = 0; j <= i + P; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][g][j][d];
					l += expf(s * scale - m);
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i + P; j++) {
						float s = 0.0f;
						for (int e = 0; e < 64; e++) s += (float)q[b][h][i][e] * (float)k[b][g][j][e];
						acc += expf(s * scale - m) * (float)v[b][g][j][d];
					}
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
