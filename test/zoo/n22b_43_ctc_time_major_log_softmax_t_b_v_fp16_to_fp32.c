/* CTC's input: log_softmax over the vocab of time-major acoustic logits [T][B][V] (fp16),
 * float output as torch.nn.CTCLoss wants. A speech engineer's port. */
#include <math.h>

void ctc_log_probs(int T, int B, int V, const _Float16 logits[T][B][V], float log_probs[T][B][V])
{
#pragma fuse kernel(ctc_log_probs) parallel(t, b)
	for (int t = 0; t < T; t++)
		for (int b = 0; b < B; b++) {
			float m = -INFINITY;
			for (int v = 0; v < V; v++)
				m = fmaxf(m, (float)logits[t][b][v]);
			float s = 0.0f;
			for (int v = 0; v < V; v++)
				s += expf((float)logits[t][b][v] - m);
			const float ls = logf(s);
			for (int v = 0; v < V; v++)
				log_probs[t][b][v] = (float)logits[t][b][v] - m - ls;
		}
}
