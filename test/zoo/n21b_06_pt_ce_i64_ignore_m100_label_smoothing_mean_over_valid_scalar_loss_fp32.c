/* F.cross_entropy(logits, target, ignore_index=-100, label_smoothing=eps, reduction='mean')
 * ported op by op: per row lse, nll = lse - x[t], smooth = lse - mean(x); loss averaged over
 * the non-ignored rows into one scalar. Targets int64. */
#include <math.h>
#include <stdint.h>

void ce_ls(int N, int C, float eps, const float logits[N][C], const int64_t target[N], float loss[1])
{
	float total = 0.0f;
	int count = 0;
#pragma fuse kernel(ce_ls) parallel(n)
	for (int n = 0; n < N; n++) {
		const int64_t t = target[n];
		if (t == -100) continue;
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, logits[n][c]);
		float s = 0.0f, sx = 0.0f;
		for (int c = 0; c < C; c++) {
			s += expf(logits[n][c] - m);
			sx += logits[n][c];
		}
		float lse = m + logf(s);
		float nll = lse - logits[n][t];
		float smooth = lse - sx / C;
		total += (1.0f - eps) * nll + eps * smooth;
		count += 1;
	}
	loss[0] = count > 0 ? total / count : 0.0f;
}
