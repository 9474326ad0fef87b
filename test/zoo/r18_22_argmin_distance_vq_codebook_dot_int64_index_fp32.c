/* Vector quantisation (VQ-VAE) nearest code: argmin over K codes of ||z - e_k||^2 written as
 * |e|^2 - 2 z.e (the |z|^2 term dropped), strict `<` so the first minimum wins; int64 index
 * and the distance out. fp32, run-time code dim. */
#include <math.h>
#include <stdint.h>

void vq_nearest(int N, int K, int Dc, const float z[N][Dc], const float codebook[K][Dc], const float code_sq[K], int64_t idx[N], float dist[N])
{
#pragma fuse kernel(vq_nearest) parallel(n)
	for (int n = 0; n < N; n++) {
		float best = INFINITY;
		int64_t bi = 0;
		for (int k = 0; k < K; k++) {
			float dot = 0.0f;
			for (int d = 0; d < Dc; d++) dot += z[n][d] * codebook[k][d];
			const float dk = code_sq[k] - 2.0f * dot;
			if (dk < best) {
				best = dk;
				bi = k;
			}
		}
		idx[n] = bi;
		dist[n] = best;
	}
}
