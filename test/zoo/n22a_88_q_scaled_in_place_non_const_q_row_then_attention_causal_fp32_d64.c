/* A memory-frugal port: q is scaled in place (q *= 1/sqrt(d), as `q = q * self.scale` rebinding
 * becomes in C), inside the row, before the key loop; q is therefore not const. Causal, fp32. */
#include <math.h>

void attn_q_inplace(int B, int H, int N, float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		    float o[B][H][N][64])
{
#pragma fuse kernel(attn_q_inplace) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				for (int d = 0; d < 64; d++) q[b][h][i][d] *= 0.125f;
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / l;
			}
}
