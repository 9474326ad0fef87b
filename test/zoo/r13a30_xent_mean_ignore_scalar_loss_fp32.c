/* F.cross_entropy(reduction='mean', ignore_index=-1): one scalar loss, the mean over
 * non-ignored tokens; the count kept in an int. */
#include <math.h>
#include <stdint.h>

void xent_mean(int T, int V, const float logits[T][V], const int32_t tgt[T], float *loss)
{
	float total = 0.0f;
	int count = 0;
#pragma fuse kernel(xent_mean) parallel(t)
	for (int t = 0; t < T; t++) {
		if (tgt[t] < 0) continue;
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, logits[t][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf(logits[t][v] - m);
		total += m + logf(z) - logits[t][tgt[t]];
		count++;
	}
	*loss = count > 0 ? total / (float)count : 0.0f;
}
