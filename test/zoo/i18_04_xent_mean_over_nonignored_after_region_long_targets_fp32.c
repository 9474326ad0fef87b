/* F.cross_entropy(logits, target, ignore_index=-100, reduction='mean') as a C port would do it:
 * per-row loss into a running total and a count, the mean stored after the region.
 * int64 class targets, fp32 logits, row pointer into the logits. */
#include <math.h>
#include <stdint.h>

void cross_entropy_mean(int N, int C, const float logits[N][C], const int64_t target[N], float *loss)
{
	float total = 0.0f;
	float count = 0.0f;
#pragma fuse kernel(cross_entropy_mean) parallel(n)
	for (int n = 0; n < N; n++) {
		const int64_t t = target[n];
		if (t == -100) continue;
		const float *row = logits[n];
		float mx = -INFINITY;
		for (int c = 0; c < C; c++) mx = fmaxf(mx, row[c]);
		float se = 0.0f;
		for (int c = 0; c < C; c++) se += expf(row[c] - mx);
		total += logf(se) + mx - row[t];
		count += 1.0f;
	}
	*loss = total / count;
}
