/* KL(p_t || p_s) with the 0 * log 0 convention written as a guard (scipy's rel_entr: only where the
 * target probability is positive); probabilities from two logit rows; fp32, run-time V. */
#include <math.h>

void kl_guard(int R, int V, const float t[R][V], const float s[R][V], float kl[R])
{
#pragma fuse kernel(kl_guard) parallel(r)
	for (int r = 0; r < R; r++) {
		float mt = -INFINITY, ms = -INFINITY;
		for (int v = 0; v < V; v++) { mt = fmaxf(mt, t[r][v]); ms = fmaxf(ms, s[r][v]); }
		float zt = 0.0f, zs = 0.0f;
		for (int v = 0; v < V; v++) { zt += expf(t[r][v] - mt); zs += expf(s[r][v] - ms); }
		float acc = 0.0f;
		for (int v = 0; v < V; v++) {
			const float pt = expf(t[r][v] - mt) / zt;
			const float ps = expf(s[r][v] - ms) / zs;
			if (pt > 0.0f) acc += pt * (logf(pt) - logf(ps));
		}
		kl[r] = acc;
	}
}
