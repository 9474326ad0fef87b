/* An eval loop's batch metrics in one pass: summed CE loss and the number of correct
 * argmax predictions (ties to the first), as scalar outputs a student accumulates across
 * rows. int32 labels. */
#include <math.h>
#include <stdint.h>

void eval_batch(int N, int C, const float logits[N][C], const int32_t labels[N], float *loss_sum, int32_t *correct)
{
	*loss_sum = 0.0f;
	*correct = 0;
#pragma fuse kernel(eval_batch) parallel(n)
	for (int n = 0; n < N; n++) {
		float best = -INFINITY;
		int pred = 0;
		for (int c = 0; c < C; c++)
			if (logits[n][c] > best) {
				best = logits[n][c];
				pred = c;
			}
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf(logits[n][c] - best);
		*loss_sum += best + logf(z) - logits[n][labels[n]];
		*correct += (pred == labels[n]) ? 1 : 0;
	}
}
