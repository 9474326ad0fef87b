/* Top-p prep over logits already sorted descending (the sampler sorted them): LSE, then the
 * number of tokens whose cumulative probability first reaches top_p (a scan with a break). */
#include <math.h>

void top_p_keep(int B, int V, float top_p, const float sorted[B][V], int n_keep[B], float lse[B])
{
#pragma fuse kernel(top_p_keep) parallel(b)
	for (int b = 0; b < B; b++) {
		const float m = sorted[b][0];
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf(sorted[b][v] - m);
		float cum = 0.0f;
		int n = 0;
		for (int v = 0; v < V; v++) {
			if (cum >= top_p) break;
			cum += expf(sorted[b][v] - m) / z;
			n++;
		}
		n_keep[b] = n;
		lse[b] = m + logf(z);
	}
}
