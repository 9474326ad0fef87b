/* Ring attention (one step: this device's KV block against the local queries), merging into the running
 * state the previous steps left: m_prev/l_prev/o_prev in, m/l/o out. The max is seeded with m_prev, the
 * denominator with l_prev rescaled to the new max, the accumulator with o_prev * l_prev rescaled likewise. */
#include <math.h>
void ring_step(int B, int H, int N, int NK, const float q[B][H][N][64], const float k[B][H][NK][64], const float v[B][H][NK][64],
	       const float m_prev[B][H][N], const float l_prev[B][H][N], const float o_prev[B][H][N][64],
	       float m_out[B][H][N], float l_out[B][H][N], float o[B][H][N][64])
{
#pragma fuse kernel(ring_step) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[NK];
				float m = m_prev[b][h][i];
				for (int j = 0; j < NK; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += q[b][h][i][d] * k[b][h][j][d];
					s[j] = t * 0.125f;
					m = fmaxf(m, s[j]);
				}
				const float c = expf(m_prev[b][h][i] - m);
				float l = l_prev[b][h][i] * c;
				for (int j = 0; j < NK; j++) l += expf(s[j] - m);
				for (int d = 0; d < 64; d++) {
					float acc = o_prev[b][h][i][d] * l_prev[b][h][i] * c;
					for (int j = 0; j < NK; j++) acc += expf(s[j] - m) * v[b][h][j][d];
					o[b][h][i][d] = acc / l;
				}
				m_out[b][h][i] = m;
				l_out[b][h][i] = l;
			}
}
