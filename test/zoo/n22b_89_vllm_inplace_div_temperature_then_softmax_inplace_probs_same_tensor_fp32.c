/* vLLM's sampler ops in place on one logits tensor: logits.div_(temperatures.unsqueeze(1)),
 * then probs = softmax written back into the same buffer (the buffer is reused as probs). */
#include <math.h>

void inplace_temp_softmax(int B, int V, const float temperatures[B], float logits[B][V])
{
#pragma fuse kernel(inplace_temp_softmax) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) {
			logits[b][v] /= temperatures[b];
			m = fmaxf(m, logits[b][v]);
		}
		float s = 0.0f;
		for (int v = 0; v < V; v++)
			s += expf(logits[b][v] - m);
		for (int v = 0; v < V; v++)
			logits[b][v] = expf(logits[b][v] - m) / s;
	}
}
