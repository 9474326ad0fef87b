/* row_lse_online_sink_seed_l_one_fp32: log-sum-exp with an attention sink by an online
 * softmax seeded with the sink's logit: m = sink[r], l = 1 (= exp(sink - sink)); the seed's
 * 1 is rescaled with the max like every term, to exp(sink - m_final). */
#include <math.h>
void lse_sink(int R, int C, const float sink[R], const float x[R][C], float lse[R])
{
#pragma fuse kernel(lse_sink) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = sink[r], l = 1.0f;
		for (int c = 0; c < C; c++) {
			float mn = fmaxf(m, x[r][c]);
			l = l * expf(m - mn) + expf(x[r][c] - mn);
			m = mn;
		}
		lse[r] = m + logf(l);
	}
}
