/* Switch-Transformer router: softmax over E experts per token, then top-1 expert index and its
 * gate probability (argmax with value; first max wins as torch.max does). E run-time (8..256). */
#include <math.h>
#include <stdint.h>

void router_top1(int T, int E, const float router_logits[T][E], float probs[T][E],
		 int64_t expert[T], float gate[T])
{
#pragma fuse kernel(router_top1) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int e = 0; e < E; e++) m = fmaxf(m, router_logits[t][e]);
		float z = 0.0f;
		for (int e = 0; e < E; e++) z += expf(router_logits[t][e] - m);
		float best = -INFINITY;
		int64_t arg = 0;
		for (int e = 0; e < E; e++) {
			const float p = expf(router_logits[t][e] - m) / z;
			probs[t][e] = p;
			if (p > best) { best = p; arg = e; }
		}
		expert[t] = arg;
		gate[t] = best;
	}
}
