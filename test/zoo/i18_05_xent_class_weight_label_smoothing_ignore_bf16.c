/* nn.CrossEntropyLoss(weight=w, ignore_index, label_smoothing=eps, reduction='none'),
 * ported term by term from PyTorch's formula: the weight of the target class scales the NLL part,
 * the smoothing part sums w[c] * logp[c] over classes. bf16 logits, int64 targets, fp32 loss. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void ce_weighted_smooth(int N, int C, int ignore_index, float eps, const fusecc_bf16 x[N][C], const int64_t y[N], const float w[C], float loss[N])
{
#pragma fuse kernel(ce_weighted_smooth) parallel(n) rolling(c)
	for (int n = 0; n < N; n++) {
		if (y[n] == ignore_index) {
			loss[n] = 0.0f;
			continue;
		}
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, fusecc_bf16_to_float(x[n][c]));
		float z = 0.0f;
		for (int c = 0; c < C; c++) z += expf(fusecc_bf16_to_float(x[n][c]) - m);
		const float lse = m + logf(z);
		float smooth = 0.0f;
		for (int c = 0; c < C; c++) smooth -= w[c] * (fusecc_bf16_to_float(x[n][c]) - lse);
		const float nll = -w[y[n]] * (fusecc_bf16_to_float(x[n][y[n]]) - lse);
		loss[n] = (1.0f - eps) * nll + eps / (float)C * smooth;
	}
}
