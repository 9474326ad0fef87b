/* DeepSeek-V3-style router, top-1 variant: scores = sigmoid(logits); the expert is chosen by
 * score + e_score_correction_bias, but the weight is the raw score of the chosen expert (a payload
 * carried by the argmax loop), times routed_scaling_factor. */
#include <math.h>
#include <stdint.h>

void ds_router_top1(int T, int E, float routed_scaling, const float logits[T][E], const float bias[E],
		    int32_t expert[T], float weight[T])
{
#pragma fuse kernel(ds_router_top1) parallel(t)
	for (int t = 0; t < T; t++) {
		float best = -INFINITY, w = 0.0f;
		int32_t arg = 0;
		for (int e = 0; e < E; e++) {
			const float s = 1.0f / (1.0f + expf(-logits[t][e]));
			const float key = s + bias[e];
			if (key > best) {
				best = key;
				arg = e;
				w = s;
			}
		}
		expert[t] = arg;
		weight[t] = w * routed_scaling;
	}
}
