/* GShard top-1 dispatch with expert capacity, as a CPU reference: softmax over experts,
 * argmax, then the token's position in its expert's buffer is a running count over the
 * tokens before it (the cumsum of the one-hot mask); tokens past capacity are dropped. */
#include <math.h>
#include <stdint.h>

void gshard_top1_capacity(int T, int E, int capacity, const float logits[T][E], int32_t expert[T],
			  int32_t slot[T], float gate[T], int32_t counts[E])
{
	for (int e = 0; e < E; e++)
		counts[e] = 0;
#pragma fuse kernel(gshard_top1_capacity)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		int arg = 0;
		for (int e = 0; e < E; e++)
			if (logits[t][e] > m) {
				m = logits[t][e];
				arg = e;
			}
		float z = 0.0f;
		for (int e = 0; e < E; e++)
			z += expf(logits[t][e] - m);
		int pos = counts[arg];
		counts[arg] = pos + 1;
		expert[t] = arg;
		slot[t] = pos < capacity ? pos : -1;
		gate[t] = pos < capacity ? 1.0f / z : 0.0f;
	}
}
