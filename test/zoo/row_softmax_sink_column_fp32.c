/* row_softmax_sink_column_fp32.c: a softmax over each row with one extra learned logit
 * (a "sink" or null class, as gpt-oss's attention sinks and some MoE routers add) whose
 * probability is dropped.
 * Style: the extra column written as seeds: the max starting at the sink
 * (float m = sink[0];) and the denominator at its exponential
 * (float l = expf(sink[0] - m);), then the normalised stores; fp32. No clause: the
 * row-reduction path. */
#include <math.h>

void softmax_sink(int T, int V, const float x[T][V], const float sink[1], float y[T][V])
{
#pragma fuse kernel(softmax_sink) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = sink[0];
		for (int c = 0; c < V; c++)
			m = fmaxf(m, x[t][c]);
		float l = expf(sink[0] - m);
		for (int c = 0; c < V; c++)
			l += expf(x[t][c] - m);
		for (int c = 0; c < V; c++)
			y[t][c] = expf(x[t][c] - m) / l;
	}
}
