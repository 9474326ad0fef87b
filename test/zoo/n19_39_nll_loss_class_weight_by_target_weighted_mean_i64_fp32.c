/* F.cross_entropy(input, target, weight=w, reduction='mean'): per row nll = lse - x[target],
 * scaled by w[target]; the mean divides by the sum of the weights of the targets (aten nll_loss semantics). */
#include <math.h>
#include <stdint.h>
void xent_weighted(int N, int C, const float input[N][C], const int64_t target[N], const float weight[C], float *out)
{
	float total_weight = 0.0f;
	float total_loss = 0.0f;
#pragma fuse kernel(xent_weighted) parallel(n)
	for (int n = 0; n < N; n++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++) mx = fmaxf(mx, input[n][c]);
		float se = 0.0f;
		for (int c = 0; c < C; c++) se += expf(input[n][c] - mx);
		const float w = weight[target[n]];
		total_loss += w * (mx + logf(se) - input[n][target[n]]);
		total_weight += w;
	}
	*out = total_loss / total_weight;
}
