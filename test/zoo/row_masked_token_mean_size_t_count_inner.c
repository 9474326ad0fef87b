/* row_masked_token_mean_size_t_count_inner: the mean of a per-element loss over the
 * unmasked positions of a [B][T] batch (a masked-LM loss's reduction): the sum in a float,
 * the count of unmasked positions in a size_t incremented with ++ inside the loop over the
 * tokens, the mean stored through a pointer after the loop.
 * Style: a systems programmer's C: size_t counter, pre-increment, uint8_t mask, the
 * condition as `if (!mask) continue;` inside the inner loop. */
#include <stddef.h>
#include <stdint.h>

void masked_mean(int B, int T, const float l[B][T], const uint8_t mask[B][T], float *mean)
{
	float sum = 0.0f;
	size_t cnt = 0;
#pragma fuse kernel(masked_mean) parallel(b)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++) {
			if (!mask[b][t])
				continue;
			sum += l[b][t];
			++cnt;
		}
	*mean = cnt ? sum / (float)cnt : 0.0f;
}
