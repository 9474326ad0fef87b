/* llama.cpp sampler style: a static helper argmax_f32(const float *x, int n) returning the index
 * (first max), used by the greedy sampler, plus the log-sum-exp of the candidates for the
 * chosen token's logit probability. */
#include <math.h>
#include <stdint.h>

static int argmax_f32(const float *x, int n)
{
	float best = x[0];
	int idx = 0;
	for (int i = 1; i < n; i++) {
		if (x[i] > best) {
			best = x[i];
			idx = i;
		}
	}
	return idx;
}

void greedy_sampler(int B, int n_vocab, const float logits[B][n_vocab], int32_t token[B], float p_token[B])
{
#pragma fuse kernel(greedy_sampler) parallel(b)
	for (int b = 0; b < B; b++) {
		const int id = argmax_f32(logits[b], n_vocab);
		const float mx = logits[b][id];
		float s = 0.0f;
		for (int i = 0; i < n_vocab; i++)
			s += expf(logits[b][i] - mx);
		token[b] = id;
		p_token[b] = 1.0f / s;
	}
}
