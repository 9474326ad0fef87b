/* Training forward that keeps the output normalised at every key (the "online normalised"
 * variant from the online-softmax paper): o = o * (l_old * e^(m_old - m) / l) + p / l * v, and
 * stores the log-sum-exp for the backward pass; causal, run-time head dim. */
#include <math.h>

void attn_fwd_train(int B, int H, int N, int D, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		    const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D], float lse[B][H][N])
{
	const float sm = 1.0f / sqrtf((float)D);
#pragma fuse kernel(attn_fwd_train) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= sm;
					const float m_new = fmaxf(m, s);
					const float l_new = l * expf(m - m_new) + expf(s - m_new);
					for (int d = 0; d < D; d++)
						acc[d] = acc[d] * (l * expf(m - m_new) / l_new) + expf(s - m_new) / l_new * (float)v[b][h][j][d];
					m = m_new;
					l = l_new;
				}
				for (int d = 0; d < D; d++) o[b][h][i][d] = (_Float16)acc[d];
				lse[b][h][i] = m + logf(l);
			}
}
