/* DeepNet's post-LN, LayerNorm(alpha * x + f(x)), through an apex-style kernel that writes
 * mean and invvar for the backward; statistics in one pass with double accumulators (a port
 * of cuWelfordMuSigma2's intent by someone who remembered "accumulate in double"). */
#include <math.h>

void deepnorm_layernorm(int n1, int n2, float alpha, double epsilon, const _Float16 x[n1][n2], const _Float16 fx[n1][n2],
		const float gamma[n2], const float beta[n2], _Float16 y[n1][n2], float mean[n1], float invvar[n1])
{
#pragma fuse kernel(deepnorm_layernorm) parallel(i1)
	for (int i1 = 0; i1 < n1; i1++) {
		double s = 0.0, s2 = 0.0;
		for (int i2 = 0; i2 < n2; i2++) {
			const double u = (double)(alpha * (float)x[i1][i2] + (float)fx[i1][i2]);
			s += u;
			s2 += u * u;
		}
		const double mu = s / n2;
		const double var = s2 / n2 - mu * mu;
		const float iv = (float)(1.0 / sqrt(var + epsilon));
		for (int i2 = 0; i2 < n2; i2++) {
			const float u = alpha * (float)x[i1][i2] + (float)fx[i1][i2];
			y[i1][i2] = (_Float16)(gamma[i2] * ((u - (float)mu) * iv) + beta[i2]);
		}
		mean[i1] = (float)mu;
		invvar[i1] = iv;
	}
}
