/* A scientific-ML user (mixture-density network likelihoods) keeps everything in double:
 * log-softmax of double rows with exp/log, double output. */
#include <math.h>

void log_softmax_f64(int N, int K, const double x[N][K], double y[N][K])
{
#pragma fuse kernel(log_softmax_f64) parallel(n)
	for (int n = 0; n < N; n++) {
		double m = -INFINITY;
		for (int k = 0; k < K; k++)
			m = fmax(m, x[n][k]);
		double s = 0.0;
		for (int k = 0; k < K; k++)
			s += exp(x[n][k] - m);
		const double lse = m + log(s);
		for (int k = 0; k < K; k++)
			y[n][k] = x[n][k] - lse;
	}
}
