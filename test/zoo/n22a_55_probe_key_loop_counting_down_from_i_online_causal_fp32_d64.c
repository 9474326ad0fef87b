/* PROBE: the causal key loop counts down from the diagonal (j = i .. 0), online softmax in that order
 * (order changes the rounding of m/l, not the value); fp32 so the comparison is tight. */
#include <math.h>

void attn_countdown(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		    float o[B][H][N][64])
{
#pragma fuse kernel(attn_countdown) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
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
