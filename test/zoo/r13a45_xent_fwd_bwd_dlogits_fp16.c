/* Fused cross-entropy forward + backward (llm.c style): loss and dlogits = (softmax - onehot)
 * * dloss / T, fp16 logits, int32 targets. */
#include <math.h>
#include <stdint.h>

void xent_fb(int T, int V, float dloss, const _Float16 logits[T][V], const int32_t tgt[T],
	     float loss[T], _Float16 dlogits[T][V])
{
#pragma fuse kernel(xent_fb) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, (float)logits[t][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf((float)logits[t][v] - m);
		loss[t] = m + logf(z) - (float)logits[t][tgt[t]];
		for (int v = 0; v < V; v++) {
			float p = expf((float)logits[t][v] - m) / z;
			float ind = v == tgt[t] ? 1.0f : 0.0f;
			dlogits[t][v] = (_Float16)((p - ind) * dloss / (float)T);
		}
	}
}
