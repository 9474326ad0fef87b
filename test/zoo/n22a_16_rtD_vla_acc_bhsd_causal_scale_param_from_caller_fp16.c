/* A generic reference a library keeps for every head size: run-time D, the accumulator a VLA
 * float acc[D], softmax scale passed in by the caller, causal. */
#include <math.h>

void attn_fwd_ref(int B, int H, int N, int D, float softmax_scale, const _Float16 q[B][H][N][D],
		  const _Float16 k[B][H][N][D], const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_fwd_ref) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float acc[D];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				float m = -INFINITY, l = 0.0f;
				for (int j = 0; j < i + 1; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++) x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					x *= softmax_scale;
					if (x > m) {
						float c = expf(m - x);
						l *= c;
						for (int d = 0; d < D; d++) acc[d] *= c;
						m = x;
					}
					float p = expf(x - m);
					l += p;
					for (int d = 0; d < D; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < D; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
