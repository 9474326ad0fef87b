/* Training-run logit monitoring (the "max logit / z-loss" dashboard): per token, the max,
 * mean and std of the logits and lse^2, a C port of the metrics hook. */
#include <math.h>

void logit_stats(int T, int V, const float logits[T][V], float mx_o[T], float mean_o[T],
		 float std_o[T], float zsq_o[T])
{
#pragma fuse kernel(logit_stats) parallel(t)
	for (int t = 0; t < T; t++) {
		float mx = -INFINITY, sum = 0.0f;
		for (int v = 0; v < V; v++) {
			mx = fmaxf(mx, logits[t][v]);
			sum += logits[t][v];
		}
		const float mean = sum / V;
		float ss = 0.0f, se = 0.0f;
		for (int v = 0; v < V; v++) {
			float d = logits[t][v] - mean;
			ss += d * d;
			se += expf(logits[t][v] - mx);
		}
		const float lse = mx + logf(se);
		mx_o[t] = mx;
		mean_o[t] = mean;
		std_o[t] = sqrtf(ss / V);
		zsq_o[t] = lse * lse;
	}
}
