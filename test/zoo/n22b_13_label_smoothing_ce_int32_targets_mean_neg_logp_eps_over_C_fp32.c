/* Label-smoothed cross-entropy as written in timm's LabelSmoothingCrossEntropy, per sample:
 * logp = log_softmax(x); nll = -logp[target]; smooth = -mean(logp); loss = (1-eps)*nll + eps*smooth. */
#include <math.h>
#include <stdint.h>

void ls_ce(int N, int C, float smoothing, const float x[N][C], const int32_t target[N], float loss[N])
{
#pragma fuse kernel(ls_ce) parallel(i)
	for (int i = 0; i < N; i++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++)
			if (x[i][c] > mx)
				mx = x[i][c];
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += expf(x[i][c] - mx);
		const float lse = mx + logf(s);
		float sum_logp = 0.0f;
		for (int c = 0; c < C; c++)
			sum_logp += x[i][c] - lse;
		const float nll = lse - x[i][target[i]];
		const float smooth = -sum_logp / (float)C;
		loss[i] = (1.0f - smoothing) * nll + smoothing * smooth;
	}
}
