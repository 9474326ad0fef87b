/* HPC key loop taking two keys per iteration (the caller guarantees an even N: sequences padded to a
 * multiple of 2), two-pass softmax: the max, the sum and the P.V each updated by two statements. */
#include <math.h>

void attn_kpairs(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		 float o[B][H][N][64])
{
#pragma fuse kernel(attn_kpairs) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j += 2) {
					float s0 = 0.0f, s1 = 0.0f;
					for (int d = 0; d < 64; d++) {
						s0 += q[b][h][i][d] * k[b][h][j][d];
						s1 += q[b][h][i][d] * k[b][h][j + 1][d];
					}
					mx = fmaxf(mx, s0 * 0.125f);
					mx = fmaxf(mx, s1 * 0.125f);
				}
				float l = 0.0f, acc[64] = {0};
				for (int j = 0; j < N; j += 2) {
					float s0 = 0.0f, s1 = 0.0f;
					for (int d = 0; d < 64; d++) {
						s0 += q[b][h][i][d] * k[b][h][j][d];
						s1 += q[b][h][i][d] * k[b][h][j + 1][d];
					}
					const float p0 = expf(s0 * 0.125f - mx), p1 = expf(s1 * 0.125f - mx);
					l += p0;
					l += p1;
					for (int d = 0; d < 64; d++) {
						acc[d] += p0 * v[b][h][j][d];
						acc[d] += p1 * v[b][h][j + 1][d];
					}
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / l;
			}
}
