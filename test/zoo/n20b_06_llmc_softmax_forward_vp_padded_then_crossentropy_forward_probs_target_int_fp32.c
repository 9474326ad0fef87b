/* llm.c train_gpt2.c: softmax_forward (maxval seeded with -10000.0f, loop to V, pad the
 * probabilities V..Vp with zeros) then crossentropy_forward (losses = -logf(probs[ix])) for
 * the same position, pasted into one loop over b and t; flat pointers, as llm.c has them. */
#include <math.h>

void softmax_crossentropy_forward(int B, int T, int V, int Vp, float *probs, float *losses,
		const float *logits, const int *targets)
{
#pragma fuse kernel(softmax_xent) parallel(b, t)
	for (int b = 0; b < B; b++) {
		for (int t = 0; t < T; t++) {
			const float *logits_bt = logits + b * T * Vp + t * Vp;
			float *probs_bt = probs + b * T * Vp + t * Vp;
			float maxval = -10000.0f;
			for (int i = 0; i < V; i++) {
				if (logits_bt[i] > maxval) {
					maxval = logits_bt[i];
				}
			}
			float sum = 0.0f;
			for (int i = 0; i < V; i++) {
				probs_bt[i] = expf(logits_bt[i] - maxval);
				sum += probs_bt[i];
			}
			for (int i = 0; i < V; i++) {
				probs_bt[i] /= sum;
			}
			for (int i = V; i < Vp; i++) {
				probs_bt[i] = 0.0f;
			}
			int ix = targets[b * T + t];
			losses[b * T + t] = -logf(probs_bt[ix]);
		}
	}
}
