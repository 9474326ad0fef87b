/* A causal softmax over a precomputed score matrix (one row per query, HF's eager path after
 * the matmul): row r covers columns 0..r, the rest zeroed; the reduction's bound varies with
 * the row. fp32, square matrix [N][N] per (b, h). */
#include <math.h>

void causal_softmax(int BH, int N, const float s[BH][N][N], float p[BH][N][N])
{
#pragma fuse kernel(causal_softmax) parallel(z, r)
	for (int z = 0; z < BH; z++)
		for (int r = 0; r < N; r++) {
			float m = -INFINITY;
			for (int c = 0; c <= r; c++) m = fmaxf(m, s[z][r][c]);
			float l = 0.0f;
			for (int c = 0; c <= r; c++) l += expf(s[z][r][c] - m);
			for (int c = 0; c < N; c++) p[z][r][c] = c <= r ? expf(s[z][r][c] - m) / l : 0.0f;
		}
}
