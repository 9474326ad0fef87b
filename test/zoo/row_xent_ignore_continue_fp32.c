/* row_xent_ignore_continue_fp32.c: cross-entropy with an ignore index written with an early
 * `continue` (the ignored token's loss set to 0 first), fp32 logits, int32 targets read in
 * place (logits[t][target[t]]), no strategy clause. parallel(t). */
#include <math.h>

void xent_ignore_cont(int T, int V, int ignore_index, const float logits[T][V],
                      const int target[T], float loss[T])
{
#pragma fuse kernel(xent_ignore_cont) parallel(t)
	for (int t = 0; t < T; t++) {
		if (target[t] == ignore_index) {
			loss[t] = 0.0f;
			continue;
		}
		float mx = -INFINITY;
		for (int v = 0; v < V; v++)
			mx = fmaxf(mx, logits[t][v]);
		float se = 0.0f;
		for (int v = 0; v < V; v++)
			se += expf(logits[t][v] - mx);
		loss[t] = logf(se) + mx - logits[t][target[t]];
	}
}
