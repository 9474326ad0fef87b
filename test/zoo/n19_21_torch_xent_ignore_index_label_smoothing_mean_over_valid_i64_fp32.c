/* F.cross_entropy(logits, target, ignore_index (an int argument, -100 by default), label_smoothing=eps, reduction='mean') ported from
 * aten's cross_entropy: per row lse, nll = lse - x[target], smooth = lse - mean(x) (= -sum(logp)/C),
 * loss_t = (1 - eps) * nll + eps * smooth; the mean is over rows whose target is not ignore_index. */
#include <math.h>
#include <stdint.h>
void cross_entropy_ls(int N, int C, int ignore_index, float label_smoothing, const float logits[N][C], const int64_t target[N], float *loss)
{
	float total = 0.0f;
	float count = 0.0f;
#pragma fuse kernel(cross_entropy_ls) parallel(n)
	for (int n = 0; n < N; n++) {
		if (target[n] == ignore_index) continue;
		float mx = -INFINITY;
		for (int c = 0; c < C; c++) mx = fmaxf(mx, logits[n][c]);
		float se = 0.0f, sx = 0.0f;
		for (int c = 0; c < C; c++) { se += expf(logits[n][c] - mx); sx += logits[n][c]; }
		const float lse = mx + logf(se);
		const float nll = lse - logits[n][target[n]];
		const float smooth = lse - sx / (float)C;
		total += (1.0f - label_smoothing) * nll + label_smoothing * smooth;
		count += 1.0f;
	}
	*loss = total / count;
}
