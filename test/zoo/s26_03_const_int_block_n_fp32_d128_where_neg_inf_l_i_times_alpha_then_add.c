/* A C++-minded port of a Triton flash kernel: the block size a `const int`, fp32 throughout
 * with head dim 128, tl.where as a ternary on the whole score, the running sum updated in two
 * statements (l_i *= alpha; l_i += l_ij;) and the max taken with `if (qk[n] > m_ij)`. */
#include <math.h>
void flash_fwd_fp32(int B, int H, int N, float scale, const float q[B][H][N][128], const float k[B][H][N][128], const float v[B][H][N][128],
		    float o[B][H][N][128])
{
	const int BLOCK_N = 32;
#pragma fuse kernel(flash_fwd_fp32) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m_i = -INFINITY, l_i = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int start_n = 0; start_n < N; start_n += BLOCK_N) {
					float qk[BLOCK_N];
					float m_ij = m_i;
					for (int n = 0; n < BLOCK_N; n++) {
						const int j = start_n + n;
						float s = 0.0f;
						if (j < N)
							for (int d = 0; d < 128; d++) s += q[b][h][i][d] * k[b][h][j][d];
						qk[n] = j < N ? s * scale : -INFINITY;
						if (qk[n] > m_ij) m_ij = qk[n];
					}
					const float alpha = expf(m_i - m_ij);
					float l_ij = 0.0f;
					for (int n = 0; n < BLOCK_N; n++) {
						qk[n] = expf(qk[n] - m_ij);
						l_ij += qk[n];
					}
					l_i *= alpha;
					l_i += l_ij;
					for (int d = 0; d < 128; d++) {
						acc[d] *= alpha;
						for (int n = 0; n < BLOCK_N; n++)
							if (start_n + n < N) acc[d] += qk[n] * v[b][h][start_n + n][d];
					}
					m_i = m_ij;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = acc[d] / l_i;
			}
}
