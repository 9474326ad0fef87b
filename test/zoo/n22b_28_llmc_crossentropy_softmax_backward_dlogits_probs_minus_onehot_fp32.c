/* llm.c-style fused classifier: softmax forward then the backward dlogits = (probs - onehot)
 * * dloss, written straight after the forward for one (b, t) row; V padded to Vp. */
#include <math.h>

void fused_classifier(int BT, int V, int Vp, float dloss, const float logits[BT][Vp], const int targets[BT],
		      float losses[BT], float dlogits[BT][Vp])
{
#pragma fuse kernel(fused_classifier) parallel(bt)
	for (int bt = 0; bt < BT; bt++) {
		float maxval = -10000.0f;
		for (int i = 0; i < V; i++)
			if (logits[bt][i] > maxval)
				maxval = logits[bt][i];
		float sum = 0.0f;
		for (int i = 0; i < V; i++)
			sum += expf(logits[bt][i] - maxval);
		const int ix = targets[bt];
		losses[bt] = -(logits[bt][ix] - maxval - logf(sum));
		for (int i = 0; i < V; i++) {
			const float prob = expf(logits[bt][i] - maxval) / sum;
			const float indicator = i == ix ? 1.0f : 0.0f;
			dlogits[bt][i] = (prob - indicator) * dloss;
		}
	}
}
