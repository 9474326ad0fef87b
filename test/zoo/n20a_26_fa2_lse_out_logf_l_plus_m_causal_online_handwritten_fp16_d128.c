/* A flash-attn-2 forward reference returning softmax_lse[B][H][N] (= m + log(l)) with O; the online
 * softmax written by hand with m_new / alpha, keys causal by bound, scale applied to the dot. */
#include <math.h>
void fa2_fwd(int B, int H, int N, float softmax_scale, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
	     const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128], float softmax_lse[B][H][N])
{
#pragma fuse kernel(fa2_fwd) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= softmax_scale;
					float m_new = fmaxf(m, s);
					float alpha = expf(m - m_new);
					float p = expf(s - m_new);
					l = l * alpha + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * alpha + p * (float)v[b][h][j][d];
					m = m_new;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
				softmax_lse[b][h][i] = m + logf(l);
			}
}
