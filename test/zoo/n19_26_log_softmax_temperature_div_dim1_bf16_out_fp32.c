/* Sampling code: logprobs = torch.log_softmax(logits / temperature, dim=-1, dtype=float32) over bf16 logits,
 * written as an ML engineer ports it: the scaled row is never stored, x / temperature recomputed each pass. */
#include <math.h>
#include "fusecc.h"
void logprobs_temp(int num_seqs, int vocab_size, float temperature, const fusecc_bf16 logits[num_seqs][vocab_size],
		   float logprobs[num_seqs][vocab_size])
{
#pragma fuse kernel(logprobs_temp) parallel(s)
	for (int s = 0; s < num_seqs; s++) {
		float maxv = -INFINITY;
		for (int v = 0; v < vocab_size; v++) {
			const float x = fusecc_bf16_to_float(logits[s][v]) / temperature;
			if (x > maxv) maxv = x;
		}
		float sumv = 0.0f;
		for (int v = 0; v < vocab_size; v++) sumv += expf(fusecc_bf16_to_float(logits[s][v]) / temperature - maxv);
		const float log_sum = logf(sumv);
		for (int v = 0; v < vocab_size; v++) logprobs[s][v] = fusecc_bf16_to_float(logits[s][v]) / temperature - maxv - log_sum;
	}
}
