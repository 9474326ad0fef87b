/* A Triton flash kernel ported with its BLOCK_N loop and causal upper bound hi = (start_m + 1) * BLOCK_M
 * (clamped), tl.where(offs_m >= offs_n, qk, -1.0e9), online softmax with expf (not exp2), m_i seeded -1e9. */
#include <math.h>
#define BLOCK_M 16
#define BLOCK_N 16
void flash_fwd(int Z, int H, int N_CTX, const _Float16 *Q, const _Float16 *K, const _Float16 *V, _Float16 *Out)
{
	const float sm_scale = 0.125f;
#pragma fuse kernel(flash_fwd) parallel(z, h, m)
	for (int z = 0; z < Z; z++)
		for (int h = 0; h < H; h++)
			for (int m = 0; m < N_CTX; m++) {
				const long base = ((long)z * H + h) * N_CTX * 64;
				int hi = (m / BLOCK_M + 1) * BLOCK_M;
				if (hi > N_CTX) hi = N_CTX;
				float m_i = -1.0e9f, l_i = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int start_n = 0; start_n < hi; start_n += BLOCK_N) {
					float qk[BLOCK_N];
					float m_ij = m_i;
					for (int n = 0; n < BLOCK_N; n++) {
						float s = -1.0e9f;
						int col = start_n + n;
						if (col < N_CTX && col <= m) {
							s = 0.0f;
							for (int d = 0; d < 64; d++) s += (float)Q[base + (long)m * 64 + d] * (float)K[base + (long)col * 64 + d];
							s *= sm_scale;
						}
						qk[n] = s;
						if (s > m_ij) m_ij = s;
					}
					float alpha = expf(m_i - m_ij);
					float l_ij = 0.0f;
					for (int n = 0; n < BLOCK_N; n++) { qk[n] = expf(qk[n] - m_ij); l_ij += qk[n]; }
					l_i = l_i * alpha + l_ij;
					for (int d = 0; d < 64; d++) {
						acc[d] *= alpha;
						for (int n = 0; n < BLOCK_N; n++)
							if (start_n + n < N_CTX) acc[d] += qk[n] * (float)V[base + (long)(start_n + n) * 64 + d];
					}
					m_i = m_ij;
				}
				for (int d = 0; d < 64; d++) Out[base + (long)m * 64 + d] = (_Float16)(acc[d] / l_i);
			}
}
