/* Causal-LM loss: F.cross_entropy(logits.view(-1, V), labels.view(-1), ignore_index=-100),
 * mean over non-ignored tokens, V = 32000, int64 labels; scalar loss output. */
#include <math.h>
#include <stdint.h>

void lm_loss(int T, int V, const float logits[T][V], const int64_t labels[T], float *loss)
{
	float total = 0.0f;
	int count = 0;
#pragma fuse kernel(lm_loss) parallel(t)
	for (int t = 0; t < T; t++) {
		if (labels[t] == -100) continue;
		float mx = -INFINITY;
		for (int v = 0; v < V; v++) mx = fmaxf(mx, logits[t][v]);
		float se = 0.0f;
		for (int v = 0; v < V; v++) se += expf(logits[t][v] - mx);
		total += mx + logf(se) - logits[t][labels[t]];
		count += 1;
	}
	*loss = count > 0 ? total / (float)count : 0.0f;
}
