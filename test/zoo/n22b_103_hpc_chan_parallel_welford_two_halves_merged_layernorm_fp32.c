/* An HPC engineer's CPU mirror of a two-warp Welford LayerNorm: each half of the row runs Welford,
 * then Chan et al.'s merge (delta = mean_b - mean_a; M2 = M2a + M2b + delta^2 na nb / n). */
#include <math.h>

void ln_chan(int N, int D, float eps, const float x[N][D], const float g[D], const float bta[D], float y[N][D])
{
#pragma fuse kernel(ln_chan) parallel(n)
	for (int n = 0; n < N; n++) {
		const int h = D / 2;
		float na = 0.0f, ma = 0.0f, m2a = 0.0f;
		for (int d = 0; d < h; d++) {
			na += 1.0f;
			const float dl = x[n][d] - ma;
			ma += dl / na;
			m2a += dl * (x[n][d] - ma);
		}
		float nb = 0.0f, mb = 0.0f, m2b = 0.0f;
		for (int d = h; d < D; d++) {
			nb += 1.0f;
			const float dl = x[n][d] - mb;
			mb += dl / nb;
			m2b += dl * (x[n][d] - mb);
		}
		const float nt = na + nb;
		const float delta = mb - ma;
		const float mean = ma + delta * nb / nt;
		const float m2 = m2a + m2b + delta * delta * na * nb / nt;
		const float rstd = 1.0f / sqrtf(m2 / nt + eps);
		for (int d = 0; d < D; d++)
			y[n][d] = (x[n][d] - mean) * rstd * g[d] + bta[d];
	}
}
