/* pf_matrix_nest_rtD.c: unmasked prefill written op by op like the PyTorch eager code
 * S = q @ k^T * scale; P = softmax(S, -1); O = P @ v: per (b, h) the whole score matrix
 * S[N][N] is materialised, then separate sibling i-loops compute the row maxima, the row
 * sums and the product with v (rowmax[N], rowsum[N] as local arrays).
 * Style: fp16, run-time `int D`, nest style across four sibling loops named i.
 * parallel(b, h, i), rolling(j). */
#include <math.h>

void eager_attention(int B, int H, int N, int D, float scale,
		     const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		     const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(eager_attention) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float S[N][N];
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++) {
					float acc = 0.0f;
					for (int d = 0; d < D; d++)
						acc += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					S[i][j] = acc * scale;
				}
			float rowmax[N];
			for (int i = 0; i < N; i++) {
				rowmax[i] = -INFINITY;
				for (int j = 0; j < N; j++)
					rowmax[i] = fmaxf(rowmax[i], S[i][j]);
			}
			float rowsum[N];
			for (int i = 0; i < N; i++) {
				rowsum[i] = 0.0f;
				for (int j = 0; j < N; j++)
					rowsum[i] += expf(S[i][j] - rowmax[i]);
			}
			for (int i = 0; i < N; i++)
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += expf(S[i][j] - rowmax[i]) / rowsum[i] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)acc;
				}
		}
}
