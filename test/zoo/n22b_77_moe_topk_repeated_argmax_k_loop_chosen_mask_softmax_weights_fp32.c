/* MoE top-k routing by repeated argmax (K small: 2..8), as a C inference engine writes it without a
 * sort: after the softmax, K passes, each picking the best expert not yet chosen. */
#include <math.h>
#include <stdint.h>

#define MAXK 8

void topk_router(int T, int E, int K, const float logits[T][E], int32_t idx[T][MAXK], float wts[T][MAXK])
{
#pragma fuse kernel(topk_router) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int e = 0; e < E; e++)
			m = fmaxf(m, logits[t][e]);
		float z = 0.0f;
		for (int e = 0; e < E; e++)
			z += expf(logits[t][e] - m);
		float prev = INFINITY;
		for (int k = 0; k < K; k++) {
			int best = 0;
			float bv = -INFINITY;
			for (int e = 0; e < E; e++)
				if (logits[t][e] < prev && logits[t][e] > bv) {
					bv = logits[t][e];
					best = e;
				}
			idx[t][k] = best;
			wts[t][k] = expf(bv - m) / z;
			prev = bv;
		}
	}
}
