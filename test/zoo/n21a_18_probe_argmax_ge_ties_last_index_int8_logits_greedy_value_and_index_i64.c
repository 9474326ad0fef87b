/* Probe: greedy sampling over int8-quantised logits (ties are common) with `>=`, so the LAST
 * maximal index wins, plus the max value dequantised by a per-row scale. Index out as int64. */
#include <stdint.h>

void greedy_q8(int T, int V, const int8_t logits_q[T][V], const float row_scale[T], int64_t next_tok[T],
	       float best_logit[T])
{
#pragma fuse kernel(greedy_q8) parallel(t)
	for (int t = 0; t < T; t++) {
		float best = -1e30f;
		int64_t arg = 0;
		for (int c = 0; c < V; c++) {
			float x = (float)logits_q[t][c] * row_scale[t];
			if (x >= best) { best = x; arg = c; }
		}
		next_tok[t] = arg;
		best_logit[t] = best;
	}
}
