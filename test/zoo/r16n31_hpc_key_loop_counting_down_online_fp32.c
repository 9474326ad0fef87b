/* An HPC programmer's causal attention with the key loop counting down from the diagonal
 * (`for (j = i; j >= 0; j--)`, most recent key first) and an online softmax; fp32, D=64. */
#include <math.h>

void attn_down(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
	       const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(attn_down) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = i; j >= 0; j--) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / l;
			}
}
