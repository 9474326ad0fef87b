/* row_xent_mean_ignore_double_total_ptr_loss_fp32: nn.CrossEntropyLoss(ignore_index=-100,
 * reduction='mean') as a C programmer writes it: log-sum-exp per row, the target gathered
 * through an int64 label, a double total and an int count of the valid rows set up before
 * the region, then *loss = total / count written through the pointer after it. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

void cross_entropy_mean(int N, int C, const float *logits, const int64_t *target, float *loss)
{
	double total = 0.0;
	int count = 0;
#pragma fuse kernel(cross_entropy_mean) parallel(n)
	for (int n = 0; n < N; n++) {
		if (target[n] == -100) continue;
		const float *row = logits + (size_t)n * C;
		float mx = row[0];
		for (int c = 1; c < C; c++)
			if (row[c] > mx) mx = row[c];
		float se = 0.0f;
		for (int c = 0; c < C; c++)
			se += expf(row[c] - mx);
		total += (double)(logf(se) + mx - row[target[n]]);
		count += 1;
	}
	*loss = count > 0 ? (float)(total / count) : 0.0f;
}
