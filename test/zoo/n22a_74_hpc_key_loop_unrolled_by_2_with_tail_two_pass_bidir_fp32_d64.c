/* HPC key loop unrolled by 2 (two keys per iteration, a tail for odd N), two passes, bidirectional,
 * fp32: the max and the sum each updated twice per iteration. */
#include <math.h>

void attn_kunroll2(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		   float o[B][H][N][64])
{
#pragma fuse kernel(attn_kunroll2) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					mx = fmaxf(mx, s * 0.125f);
				}
				float l = 0.0f, acc[64] = {0};
				int j = 0;
				for (; j + 1 < N; j += 2) {
					float s0 = 0.0f, s1 = 0.0f;
					for (int d = 0; d < 64; d++) {
						s0 += q[b][h][i][d] * k[b][h][j][d];
						s1 += q[b][h][i][d] * k[b][h][j + 1][d];
					}
					const float p0 = expf(s0 * 0.125f - mx), p1 = expf(s1 * 0.125f - mx);
					l += p0 + p1;
					for (int d = 0; d < 64; d++) acc[d] += p0 * v[b][h][j][d] + p1 * v[b][h][j + 1][d];
				}
				if (j < N) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					const float p = expf(s * 0.125f - mx);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / l;
			}
}
