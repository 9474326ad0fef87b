/* cross-entropy by a student: log-softmax into a scratch row, then pick the target's entry. */
#include <math.h>
void xent_scratch(int T, int V, const float *logits, const int *target, float *loss)
{
#pragma fuse kernel(xent_scratch) parallel(t)
	for (int t = 0; t < T; t++) {
		float lp[V];
		float mx = logits[t * V];
		for (int v = 1; v < V; v++) mx = fmaxf(mx, logits[t * V + v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf(logits[t * V + v] - mx);
		for (int v = 0; v < V; v++) lp[v] = logits[t * V + v] - mx - logf(z);
		loss[t] = -lp[target[t]];
	}
}
