/* log_softmax followed by nll_loss(ignore_index=-100), both outputs kept (the log-probs tensor and
 * the per-token loss), Llama-2 vocabulary 32000, fp16 logits, int64 targets; PyTorch-eager port. */
#include <math.h>
#include <stdint.h>

void logsm_nll(int T, const _Float16 logits[T][32000], const int64_t target[T], _Float16 logp[T][32000], float nll[T])
{
#pragma fuse kernel(logsm_nll) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < 32000; v++) m = fmaxf(m, (float)logits[t][v]);
		float s = 0.0f;
		for (int v = 0; v < 32000; v++) s += expf((float)logits[t][v] - m);
		const float lse = m + logf(s);
		for (int v = 0; v < 32000; v++) logp[t][v] = (_Float16)((float)logits[t][v] - lse);
		nll[t] = target[t] == -100 ? 0.0f : -(float)logp[t][target[t]];
	}
}
