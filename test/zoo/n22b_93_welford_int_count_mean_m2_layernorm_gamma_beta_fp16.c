/* Welford with an int counter (the way most people first write it), then LayerNorm with
 * gamma/beta, fp16 in/out. */
#include <math.h>

void ln_welford_int(int N, int D, float eps, const _Float16 x[N][D], const float gamma[D], const float beta[D],
		    _Float16 y[N][D])
{
#pragma fuse kernel(ln_welford_int) parallel(n)
	for (int n = 0; n < N; n++) {
		int cnt = 0;
		float mean = 0.0f, m2 = 0.0f;
		for (int d = 0; d < D; d++) {
			const float v = (float)x[n][d];
			cnt++;
			const float delta = v - mean;
			mean += delta / cnt;
			m2 += delta * (v - mean);
		}
		const float rstd = 1.0f / sqrtf(m2 / cnt + eps);
		for (int d = 0; d < D; d++)
			y[n][d] = (_Float16)(((float)x[n][d] - mean) * rstd * gamma[d] + beta[d]);
	}
}
