/* Mistral sliding-window prefill, ported by someone reading the paper: causal loop bound j <= i and
 * `continue` for keys that fell out of the window. Head dim as a #define. bshd layout. */
#include <math.h>
#define HEAD_DIM 128

void mistral_swa(int B, int N, int H, int W, const _Float16 q[B][N][H][HEAD_DIM], const _Float16 k[B][N][H][HEAD_DIM],
		 const _Float16 v[B][N][H][HEAD_DIM], _Float16 o[B][N][H][HEAD_DIM])
{
	const float sm_scale = 1.0f / sqrtf((float)HEAD_DIM);
#pragma fuse kernel(mistral_swa) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float m_i = -INFINITY, l_i = 0.0f, acc[HEAD_DIM] = {0};
				for (int j = 0; j <= i; j++) {
					if (i - j >= W)
						continue;
					float qk = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						qk += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					qk *= sm_scale;
					float m_new = qk > m_i ? qk : m_i;
					float c = expf(m_i - m_new), p = expf(qk - m_new);
					l_i = l_i * c + p;
					for (int d = 0; d < HEAD_DIM; d++)
						acc[d] = acc[d] * c + p * (float)v[b][j][h][d];
					m_i = m_new;
				}
				for (int d = 0; d < HEAD_DIM; d++)
					o[b][i][h][d] = (_Float16)(acc[d] / l_i);
			}
}
