/* A hand-written online softmax with a "skip negligible keys" shortcut: a key whose score is more than
 * THRESH below the running max is skipped (its weight would be < e^-THRESH relative), as some CPU kernels
 * do to save the V row read. Order-dependent on the running max: legal C, not a cascade. Causal. */
#include <math.h>
#define THRESH 4.0f
void online_skip(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64],
		 _Float16 o[B][H][N][64])
{
#pragma fuse kernel(online_skip) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.125f;
					if (s < m - THRESH) continue;
					const float m_new = fmaxf(m, s);
					const float alpha = expf(m - m_new);
					const float p = expf(s - m_new);
					l = l * alpha + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * alpha + p * (float)v[b][h][j][d];
					m = m_new;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
