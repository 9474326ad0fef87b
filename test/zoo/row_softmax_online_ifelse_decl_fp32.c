/* row_softmax_online_ifelse_decl_fp32: a row softmax (the logits of a language model, as a
 * nanoGPT-in-C port writes it) with the online normaliser in one pass: `if (x > maxval) {
 * sum = sum * expf(maxval - x) + 1.0f; maxval = x; } else { float e = expf(x - maxval);
 * sum += e; }`, the else arm through a local, then the probabilities. fp32, rolling(v). */
#include <math.h>
void softmax_forward(int BT, int V, const float logits[BT][V], float probs[BT][V])
{
#pragma fuse kernel(softmax_forward) parallel(bt) rolling(v)
	for (int bt = 0; bt < BT; bt++) {
		float maxval = -INFINITY;
		float sum = 0.0f;
		for (int v = 0; v < V; v++) {
			float x = logits[bt][v];
			if (x > maxval) {
				sum = sum * expf(maxval - x) + 1.0f;
				maxval = x;
			} else {
				float e = expf(x - maxval);
				sum += e;
			}
		}
		for (int v = 0; v < V; v++)
			probs[bt][v] = expf(logits[bt][v] - maxval) / sum;
	}
}
