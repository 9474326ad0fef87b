/* Switch Transformer router: router_logits[T][E] -> softmax over experts -> top-1 expert (argmax
 * loop) and its gate probability. E is small (8..128). Ported from the Mesh TF reference. */
#include <math.h>
#include <stdint.h>

void switch_router(int T, int E, const float router_logits[T][E], int32_t expert_index[T], float gate[T])
{
#pragma fuse kernel(switch_router) parallel(t)
	for (int t = 0; t < T; t++) {
		float mx = -INFINITY;
		for (int e = 0; e < E; e++)
			mx = fmaxf(mx, router_logits[t][e]);
		float den = 0.0f;
		for (int e = 0; e < E; e++)
			den += expf(router_logits[t][e] - mx);
		int best = 0;
		float bestp = -1.0f;
		for (int e = 0; e < E; e++) {
			const float p = expf(router_logits[t][e] - mx) / den;
			if (p > bestp) {
				bestp = p;
				best = e;
			}
		}
		expert_index[t] = best;
		gate[t] = bestp;
	}
}
