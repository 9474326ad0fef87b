/* row_softmax_entropy_plogp_fp16.c: entropy of the next-token distribution, H = -sum p log p
 * with p = softmax(logits) (uncertainty-based early exit), written literally: p computed per
 * element as expf(x - mx) / Z, `if (p > 0.0f) H -= p * logf(p);`; also the max probability
 * 1 / Z. fp16 logits. rolling(v), parallel(b). */
#include <math.h>

void softmax_entropy(int B, int V, const _Float16 logits[B][V], float entropy[B], float pmax[B])
{
#pragma fuse kernel(softmax_entropy) parallel(b) rolling(v)
	for (int b = 0; b < B; b++) {
		float mx = -INFINITY;
		for (int v = 0; v < V; v++)
			mx = fmaxf(mx, (float)logits[b][v]);
		float Z = 0.0f;
		for (int v = 0; v < V; v++)
			Z += expf((float)logits[b][v] - mx);
		float H = 0.0f;
		for (int v = 0; v < V; v++) {
			float p = expf((float)logits[b][v] - mx) / Z;
			if (p > 0.0f)
				H -= p * logf(p);
		}
		entropy[b] = H;
		pmax[b] = 1.0f / Z;
	}
}
