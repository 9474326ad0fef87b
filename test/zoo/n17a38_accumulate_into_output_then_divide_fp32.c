/* A C programmer accumulating P.V straight into the output array (o = 0; o += p * v; o /= l),
 * fp32 output, noncausal prefill, D = 64. */
#include <math.h>

void attn_acc_out(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
		  const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(attn_acc_out) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = 0.0f;
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					float p = expf(s * 0.125f - m);
					l += p;
					for (int d = 0; d < 64; d++) o[b][h][i][d] += p * v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] /= l;
			}
}
