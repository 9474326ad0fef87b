/* F.cross_entropy(logits, target, weight=class_w, reduction='mean'): PyTorch divides by the
 * sum of the picked class weights, not by N. A PyTorch user's port with the two totals as
 * scalar outputs written after the region. */
#include <math.h>
#include <stdint.h>

void weighted_ce_mean(int N, int C, const float logits[N][C], const int64_t target[N],
		      const float class_w[C], float *loss)
{
	float total = 0.0f;
	float wsum = 0.0f;
#pragma fuse kernel(weighted_ce_mean) parallel(n)
	for (int n = 0; n < N; n++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++)
			mx = fmaxf(mx, logits[n][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += expf(logits[n][c] - mx);
		const float w = class_w[target[n]];
		total += w * (mx + logf(s) - logits[n][target[n]]);
		wsum += w;
	}
	*loss = total / wsum;
}
