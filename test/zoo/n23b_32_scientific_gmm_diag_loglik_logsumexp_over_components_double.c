/* Log-likelihood of points under a diagonal-covariance Gaussian mixture (scikit-learn's
 * _estimate_log_gaussian_prob + logsumexp), a scientist's C in double: per point, per
 * component a quadratic form over D dims, then LSE over the K components. */
#include <math.h>

void gmm_loglik(int N, int K, int D, const double X[N][D], const double mu[K][D],
		const double prec_sqrt[K][D], const double log_w[K], const double log_det[K], double ll[N])
{
	const double log2pi = 1.8378770664093453;
#pragma fuse kernel(gmm_loglik) parallel(n)
	for (int n = 0; n < N; n++) {
		double mx = -INFINITY;
		for (int k = 0; k < K; k++) {
			double q = 0.0;
			for (int d = 0; d < D; d++) {
				double z = (X[n][d] - mu[k][d]) * prec_sqrt[k][d];
				q += z * z;
			}
			double lp = log_w[k] + log_det[k] - 0.5 * (D * log2pi + q);
			if (lp > mx)
				mx = lp;
		}
		double s = 0.0;
		for (int k = 0; k < K; k++) {
			double q = 0.0;
			for (int d = 0; d < D; d++) {
				double z = (X[n][d] - mu[k][d]) * prec_sqrt[k][d];
				q += z * z;
			}
			s += exp(log_w[k] + log_det[k] - 0.5 * (D * log2pi + q) - mx);
		}
		ll[n] = mx + log(s);
	}
}
