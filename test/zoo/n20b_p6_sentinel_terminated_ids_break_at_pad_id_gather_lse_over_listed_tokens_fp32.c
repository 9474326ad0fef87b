/* PROBE: the candidate token list of a row ends at the first pad id (-1), C-string style;
 * the LSE over the listed tokens' logits, the loop left with `break` at the sentinel. */
#include <math.h>
#include <stdint.h>

void candidate_lse(int R, int K, int V, const float logits[R][V], const int32_t cand[R][K], float lse[R])
{
#pragma fuse kernel(candidate_lse) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int k = 0; k < K; k++) {
			if (cand[r][k] < 0) break;
			m = fmaxf(m, logits[r][cand[r][k]]);
		}
		float s = 0.0f;
		for (int k = 0; k < K; k++) {
			if (cand[r][k] < 0) break;
			s += expf(logits[r][cand[r][k]] - m);
		}
		lse[r] = m + logf(s);
	}
}
