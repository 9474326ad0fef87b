/* BatchNorm1d training statistics: per feature, the mean and biased variance over the batch
 * (the first axis), the running stats updated with the unbiased variance, x normalised. */
#include <math.h>

void bn_train(int N, int F, float momentum, float eps, const float x[N][F], float run_mean[F],
	      float run_var[F], float y[N][F])
{
#pragma fuse kernel(bn_train) parallel(f)
	for (int f = 0; f < F; f++) {
		float s = 0.0f;
		for (int n = 0; n < N; n++) s += x[n][f];
		const float mu = s / N;
		float v = 0.0f;
		for (int n = 0; n < N; n++) v += (x[n][f] - mu) * (x[n][f] - mu);
		const float var = v / N;
		const float unb = N > 1 ? v / (N - 1) : var;
		run_mean[f] = (1.0f - momentum) * run_mean[f] + momentum * mu;
		run_var[f] = (1.0f - momentum) * run_var[f] + momentum * unb;
		const float rs = 1.0f / sqrtf(var + eps);
		for (int n = 0; n < N; n++) y[n][f] = (x[n][f] - mu) * rs;
	}
}
