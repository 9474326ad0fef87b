/* HF generate() greedy step written out: RepetitionPenaltyLogitsProcessor (a seen token's score
 * divided by penalty if positive, multiplied if negative; `seen` a uint8 presence row built from
 * input_ids), then next_tokens = argmax (first maximum, torch's), plus the chosen token's
 * log-probability under the penalised distribution for output_scores. */
#include <math.h>
#include <stdint.h>

void greedy_step(int batch, int vocab, float penalty, const float scores[batch][vocab], const uint8_t seen[batch][vocab],
		int64_t next_tokens[batch], float next_logprob[batch])
{
#pragma fuse kernel(greedy_step) parallel(b)
	for (int b = 0; b < batch; b++) {
		float best = -INFINITY;
		int64_t best_id = 0;
		for (int v = 0; v < vocab; v++) {
			float s = scores[b][v];
			if (seen[b][v]) s = s < 0.0f ? s * penalty : s / penalty;
			if (s > best) { best = s; best_id = v; }
		}
		float z = 0.0f;
		for (int v = 0; v < vocab; v++) {
			float s = scores[b][v];
			if (seen[b][v]) s = s < 0.0f ? s * penalty : s / penalty;
			z += expf(s - best);
		}
		next_tokens[b] = best_id;
		next_logprob[b] = -logf(z);
	}
}
