/* The scale multiplied into each product term (s += q * scale * k), head dim 80 as a #define
 * (a model with 80-wide heads, e.g. Phi-2 style), causal as a ternary on the score. */
#include <math.h>
#define DH 80

void attn80(int B, int H, int N, const _Float16 q[B][H][N][DH], const _Float16 k[B][H][N][DH],
	    const _Float16 v[B][H][N][DH], _Float16 o[B][H][N][DH])
{
	const float scale = 1.0f / sqrtf((float)DH);
#pragma fuse kernel(attn80) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[DH];
				for (int d = 0; d < DH; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < DH; d++) s += (float)q[b][h][i][d] * scale * (float)k[b][h][j][d];
					s = j <= i ? s : -INFINITY;
					float mn = fmaxf(m, s);
					float alpha = expf(m - mn);
					float p = expf(s - mn);
					l = alpha * l + p;
					for (int d = 0; d < DH; d++) acc[d] = alpha * acc[d] + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < DH; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
