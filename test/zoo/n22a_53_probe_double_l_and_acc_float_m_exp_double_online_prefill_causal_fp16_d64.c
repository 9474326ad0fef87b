/* PROBE: mixed precision accumulators: the max in float, the sum and output accumulator in double,
 * exp() in double on a float difference; fp16 storage, causal. */
#include <math.h>

void attn_mixed_acc(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		    const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(attn_mixed_acc) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				double l = 0.0, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.125f;
					const float mn = fmaxf(m, s);
					const double c = exp((double)(m - mn)), p = exp((double)(s - mn));
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (double)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
