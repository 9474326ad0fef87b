/* llama.cpp llama_sampler_greedy + the probability of the chosen token (as a server's "probs" field):
 * max = logits[0], id = 0; for i = 1..n_vocab-1 if (logits[i] > max) { max = logits[i]; id = i; };
 * p = 1 / sum(exp(logits - max)). */
#include <math.h>
#include <stdint.h>
void greedy_top1(int n_seqs, int n_vocab, const float logits[n_seqs][n_vocab], int64_t token[n_seqs], float max_logit[n_seqs], float prob[n_seqs])
{
#pragma fuse kernel(greedy_top1) parallel(s)
	for (int s = 0; s < n_seqs; s++) {
		float max = logits[s][0];
		int64_t id = 0;
		for (int i = 1; i < n_vocab; i++) {
			if (logits[s][i] > max) {
				max = logits[s][i];
				id = i;
			}
		}
		float sum = 0.0f;
		for (int i = 0; i < n_vocab; i++) sum += expf(logits[s][i] - max);
		token[s] = id;
		max_logit[s] = max;
		prob[s] = 1.0f / sum;
	}
}
