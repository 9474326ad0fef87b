/* SFT loss on assistant tokens only: per-token CE times a float loss_mask (0/1) from the chat
 * template, int64 labels always valid; the caller sums and divides. A trainer's C port. */
#include <math.h>
#include <stdint.h>

void masked_token_ce(int B, int T, int V, const _Float16 logits[B][T][V], const int64_t labels[B][T],
		     const float loss_mask[B][T], float loss[B][T])
{
#pragma fuse kernel(masked_token_ce) parallel(b, t)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++) {
			float m = -INFINITY;
			for (int v = 0; v < V; v++)
				m = fmaxf(m, (float)logits[b][t][v]);
			float s = 0.0f;
			for (int v = 0; v < V; v++)
				s += expf((float)logits[b][t][v] - m);
			const float nll = logf(s) + m - (float)logits[b][t][labels[b][t]];
			loss[b][t] = nll * loss_mask[b][t];
		}
}
