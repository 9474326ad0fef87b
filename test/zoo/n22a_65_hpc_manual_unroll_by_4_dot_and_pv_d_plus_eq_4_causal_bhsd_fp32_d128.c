/* HPC habit: the head-dim loops unrolled by hand by 4 (d += 4, four partial sums for the dot), causal,
 * fp32, two passes. */
#include <math.h>

void attn_unroll4(int B, int H, int N, const float q[B][H][N][128], const float k[B][H][N][128], const float v[B][H][N][128],
		  float o[B][H][N][128])
{
#pragma fuse kernel(attn_unroll4) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
					for (int d = 0; d < 128; d += 4) {
						s0 += q[b][h][i][d] * k[b][h][j][d];
						s1 += q[b][h][i][d + 1] * k[b][h][j][d + 1];
						s2 += q[b][h][i][d + 2] * k[b][h][j][d + 2];
						s3 += q[b][h][i][d + 3] * k[b][h][j][d + 3];
					}
					mx = fmaxf(mx, (s0 + s1 + s2 + s3) * 0.08838834764831845f);
				}
				float l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= i; j++) {
					float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
					for (int d = 0; d < 128; d += 4) {
						s0 += q[b][h][i][d] * k[b][h][j][d];
						s1 += q[b][h][i][d + 1] * k[b][h][j][d + 1];
						s2 += q[b][h][i][d + 2] * k[b][h][j][d + 2];
						s3 += q[b][h][i][d + 3] * k[b][h][j][d + 3];
					}
					const float p = expf((s0 + s1 + s2 + s3) * 0.08838834764831845f - mx);
					l += p;
					for (int d = 0; d < 128; d += 4) {
						acc[d] += p * v[b][h][j][d];
						acc[d + 1] += p * v[b][h][j][d + 1];
						acc[d + 2] += p * v[b][h][j][d + 2];
						acc[d + 3] += p * v[b][h][j][d + 3];
					}
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = acc[d] / l;
			}
}
