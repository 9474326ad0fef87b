/* "Top-margin" filtering (keep tokens within delta nats of the best one) written with a
 * continue: the LSE over kept tokens, then log-probs; the skip reads the row's max. */
#include <math.h>

void margin_lse(int B, int V, float delta, const _Float16 x[B][V], float lse[B])
{
#pragma fuse kernel(margin_lse) parallel(b)
	for (int b = 0; b < B; b++) {
		float mx = -INFINITY;
		for (int v = 0; v < V; v++) mx = fmaxf(mx, (float)x[b][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++) {
			if ((float)x[b][v] < mx - delta) continue;
			z += expf((float)x[b][v] - mx);
		}
		lse[b] = mx + logf(z);
	}
}
