/* A scientist's logsumexp over double data (mixture-model log-likelihoods), MAX macro,
 * log1p of the rest of the sum after taking out the max term once. fp64 storage. */
#include <math.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))

void logsumexp_f64(int N, int K, const double ll[N][K], double out[N])
{
#pragma fuse kernel(logsumexp_f64) parallel(n)
	for (int n = 0; n < N; n++) {
		double mx = -INFINITY;
		for (int k = 0; k < K; k++) mx = MAX(mx, ll[n][k]);
		double acc = 0.0;
		for (int k = 0; k < K; k++) acc += exp(ll[n][k] - mx);
		out[n] = mx + log(acc);
	}
}
