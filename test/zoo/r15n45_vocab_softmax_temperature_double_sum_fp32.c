/* Sampling softmax over one long vocabulary row per sequence (V up to 131072), temperature
 * applied first, the normaliser summed in double by a careful numerical programmer. */
#include <math.h>

void sample_probs(int B, int V, float temperature, const float logits[B][V], float probs[B][V])
{
	const float inv_t = 1.0f / temperature;
#pragma fuse kernel(sample_probs) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, logits[b][v] * inv_t);
		double z = 0.0;
		for (int v = 0; v < V; v++) z += exp((double)(logits[b][v] * inv_t - m));
		const float inv_z = (float)(1.0 / z);
		for (int v = 0; v < V; v++) probs[b][v] = expf(logits[b][v] * inv_t - m) * inv_z;
	}
}
