/* A student transcribing Algorithm 1 of the FlashAttention paper (Dao et al. 2022) into C,
 * with the row loop moved outermost so rows are independent (FA2's order): for each key
 * block jb of Bc keys, the block's scores, its max m~ and sum l~ are computed, and O, l and
 * m, kept in "HBM" (the output arrays), are read, rescaled and written back per block as
 * lines 11-13 of the algorithm do. Bc = 16 as a #define; N a multiple of 16 is assumed. */
#include <math.h>

#define Bc 16

void flash_attn_alg1(int N, const float Q[N][64], const float K[N][64], const float V[N][64], float O[N][64],
		     float l[N], float m[N])
{
	const float tau = 1.0f / sqrtf(64.0f);
#pragma fuse kernel(init) parallel(r)
	for (int r = 0; r < N; r++) {
		for (int d = 0; d < 64; d++)
			O[r][d] = 0.0f;
		l[r] = 0.0f;
		m[r] = -INFINITY;
	}
#pragma fuse kernel(alg1) parallel(r)
	for (int r = 0; r < N; r++)
		for (int jb = 0; jb < N / Bc; jb++) {
			float S[Bc];
			float m_tilde = -INFINITY;
			for (int c = 0; c < Bc; c++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += Q[r][d] * K[jb * Bc + c][d];
				S[c] = s * tau;
				m_tilde = fmaxf(m_tilde, S[c]);
			}
			float l_tilde = 0.0f;
			for (int c = 0; c < Bc; c++) {
				S[c] = expf(S[c] - m_tilde);
				l_tilde += S[c];
			}
			float m_new = fmaxf(m[r], m_tilde);
			float l_new = expf(m[r] - m_new) * l[r] + expf(m_tilde - m_new) * l_tilde;
			for (int d = 0; d < 64; d++) {
				float pv = 0.0f;
				for (int c = 0; c < Bc; c++)
					pv += S[c] * V[jb * Bc + c][d];
				O[r][d] = (l[r] * expf(m[r] - m_new) * O[r][d] + expf(m_tilde - m_new) * pv) / l_new;
			}
			l[r] = l_new;
			m[r] = m_new;
		}
}
