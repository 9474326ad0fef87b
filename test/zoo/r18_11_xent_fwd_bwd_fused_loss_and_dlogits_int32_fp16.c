/* Cross-entropy forward and backward in one loop nest, as a from-scratch trainer (llm.c-like)
 * writes it: loss[t] = lse - x[t][y], dlogits = (softmax - onehot) * dloss / T. int32 targets,
 * fp16 logits and gradient. */
#include <math.h>
#include <stdint.h>

void xent_fwd_bwd(int T, int V, const _Float16 logits[T][V], const int32_t targets[T], float loss[T], _Float16 dlogits[T][V])
{
	const float dloss = 1.0f / (float)T;
#pragma fuse kernel(xent_fwd_bwd) parallel(t) rolling(v)
	for (int t = 0; t < T; t++) {
		float maxval = -INFINITY;
		for (int v = 0; v < V; v++)
			if ((float)logits[t][v] > maxval) maxval = (float)logits[t][v];
		float sum = 0.0f;
		for (int v = 0; v < V; v++) sum += expf((float)logits[t][v] - maxval);
		const int ix = targets[t];
		loss[t] = logf(sum) + maxval - (float)logits[t][ix];
		for (int v = 0; v < V; v++) {
			const float prob = expf((float)logits[t][v] - maxval) / sum;
			const float indicator = v == ix ? 1.0f : 0.0f;
			dlogits[t][v] = (_Float16)((prob - indicator) * dloss);
		}
	}
}
