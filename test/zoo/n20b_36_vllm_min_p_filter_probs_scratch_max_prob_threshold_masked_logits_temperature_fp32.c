/* vLLM's Sampler min-p (apply_min_p): logits / temperature, probs = softmax (kept in a scratch
 * row), top_probs = max prob, tokens with prob < min_p * top_prob get -inf in the logits that
 * go on to sampling; per-request temperature and min_p arrays. */
#include <math.h>

void apply_temperature_min_p(int num_reqs, int vocab_size, const float temperature[num_reqs], const float min_p[num_reqs],
		const float logits[num_reqs][vocab_size], float out_logits[num_reqs][vocab_size])
{
#pragma fuse kernel(min_p) parallel(r)
	for (int r = 0; r < num_reqs; r++) {
		float probs[vocab_size];
		float mx = -INFINITY;
		for (int v = 0; v < vocab_size; v++) mx = fmaxf(mx, logits[r][v] / temperature[r]);
		float sum = 0.0f;
		for (int v = 0; v < vocab_size; v++) {
			probs[v] = expf(logits[r][v] / temperature[r] - mx);
			sum += probs[v];
		}
		float top = 0.0f;
		for (int v = 0; v < vocab_size; v++) {
			probs[v] /= sum;
			top = fmaxf(top, probs[v]);
		}
		const float thr = min_p[r] * top;
		for (int v = 0; v < vocab_size; v++)
			out_logits[r][v] = probs[v] < thr ? -INFINITY : logits[r][v] / temperature[r];
	}
}
