/* pf_causal_scale_in_exp_rtD.c: causal prefill with the softmax scale folded into the
 * exponential: the max is taken over raw q.k dots and p = exp((s - m) * scale), valid
 * because scale > 0 (the way many hand-written CUDA kernels do it).
 * Style: fp32, run-time `int D`, triangular j <= i, raw dots stored in s[N], max with a
 * ternary, j-outer P.V into acc[D], normalised after. rolling(j), no tile. */
#include <math.h>

void causal_scale_in_exp(int B, int H, int N, int D, float scale,
			 const float q[B][H][N][D], const float k[B][H][N][D],
			 const float v[B][H][N][D], float o[B][H][N][D])
{
#pragma fuse kernel(causal_scale_in_exp) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += q[b][h][i][d] * k[b][h][j][d];
					s[j] = dot;
				}
				float m = -INFINITY;
				for (int j = 0; j <= i; j++)
					m = s[j] > m ? s[j] : m;
				float l = 0.0f;
				for (int j = 0; j <= i; j++)
					l += expf((s[j] - m) * scale);
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float p = expf((s[j] - m) * scale);
					for (int d = 0; d < D; d++)
						acc[d] += p * v[b][h][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = acc[d] / l;
			}
}
