/* Probe: a temperature that depends on the row's max (an adaptive-temperature sampler:
 * T = max(1, mx / 8)), so the exponent (x - mx) / T is not linear in the max. */
#include <math.h>

void adaptive_t(int B, int V, const float x[B][V], float p[B][V])
{
#pragma fuse kernel(adaptive_t) parallel(b)
	for (int b = 0; b < B; b++) {
		float mx = -INFINITY;
		for (int v = 0; v < V; v++) mx = fmaxf(mx, x[b][v]);
		const float T = fmaxf(1.0f, mx / 8.0f);
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf((x[b][v] - mx) / T);
		for (int v = 0; v < V; v++) p[b][v] = expf((x[b][v] - mx) / T) / z;
	}
}
