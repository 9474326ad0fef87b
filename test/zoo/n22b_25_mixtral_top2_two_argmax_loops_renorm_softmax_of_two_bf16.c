/* Mixtral's router (softmax, topk(2), renormalise) written as two argmax loops by a C
 * inference-engine author: the second skips the first's index; weights = the two probabilities
 * renormalised, which is the softmax of the two logits. */
#include <math.h>
#include "fusecc.h"

void top2_router(int T, int E, const fusecc_bf16 logits[T][E], int sel[T][2], float w[T][2])
{
#pragma fuse kernel(top2_router) parallel(t)
	for (int t = 0; t < T; t++) {
		int i1 = 0;
		float v1 = -INFINITY;
		for (int e = 0; e < E; e++) {
			const float x = fusecc_bf16_to_float(logits[t][e]);
			if (x > v1) {
				v1 = x;
				i1 = e;
			}
		}
		int i2 = 0;
		float v2 = -INFINITY;
		for (int e = 0; e < E; e++) {
			const float x = fusecc_bf16_to_float(logits[t][e]);
			if (e != i1 && x > v2) {
				v2 = x;
				i2 = e;
			}
		}
		const float e2 = expf(v2 - v1);
		sel[t][0] = i1;
		sel[t][1] = i2;
		w[t][0] = 1.0f / (1.0f + e2);
		w[t][1] = e2 / (1.0f + e2);
	}
}
