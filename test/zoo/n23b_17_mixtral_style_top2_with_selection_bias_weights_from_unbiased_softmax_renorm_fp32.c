/* Aux-loss-free balancing (DeepSeek-V3's idea on a softmax router): the top-2 experts are
 * chosen on probs + bias[e] but the weights are the unbiased probs, renormalised over the
 * two. A PyTorch user's C with two argmax loops (the second skipping the first). */
#include <math.h>
#include <stdint.h>

void router_top2_biased(int T, int E, const float logits[T][E], const float bias[E],
			int32_t idx[T][2], float w[T][2])
{
#pragma fuse kernel(router_top2_biased) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int e = 0; e < E; e++)
			m = fmaxf(m, logits[t][e]);
		float z = 0.0f;
		for (int e = 0; e < E; e++)
			z += expf(logits[t][e] - m);
		float best = -INFINITY;
		int i1 = 0;
		for (int e = 0; e < E; e++) {
			float s = expf(logits[t][e] - m) / z + bias[e];
			if (s > best) {
				best = s;
				i1 = e;
			}
		}
		float second = -INFINITY;
		int i2 = 0;
		for (int e = 0; e < E; e++) {
			float s = expf(logits[t][e] - m) / z + bias[e];
			if (e != i1 && s > second) {
				second = s;
				i2 = e;
			}
		}
		float p1 = expf(logits[t][i1] - m) / z;
		float p2 = expf(logits[t][i2] - m) / z;
		idx[t][0] = i1;
		idx[t][1] = i2;
		w[t][0] = p1 / (p1 + p2);
		w[t][1] = p2 / (p1 + p2);
	}
}
