/* Sampling softmax with temperature: p = softmax(logits / T), fp16 logits, fp32 probs. */
#include <math.h>

void temp_softmax(int B, int V, float temperature, const _Float16 logits[B][V], float probs[B][V])
{
#pragma fuse kernel(temp_softmax) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, (float)logits[b][v] / temperature);
		float s = 0.0f;
		for (int v = 0; v < V; v++) s += expf((float)logits[b][v] / temperature - m);
		const float inv = 1.0f / s;
		for (int v = 0; v < V; v++) probs[b][v] = expf((float)logits[b][v] / temperature - m) * inv;
	}
}
