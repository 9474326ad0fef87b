/* Soft k-means / DEC-style clustering diagnostics: responsibilities r_k = softmin(d_k / T) over the
 * K centroids (unused centroid slots get distance 1e9 so their weight is 0), and the entropy of the
 * assignment, H = -sum r log r written with the log-softmin. A clustering engineer's C. */
#include <math.h>
#include <stdint.h>

void assign_entropy(int N, int K, float T, const float dist[N][K], const uint8_t valid[N][K], float H[N])
{
#pragma fuse kernel(assign_entropy) parallel(n)
	for (int n = 0; n < N; n++) {
		float dmin = INFINITY;
		for (int k = 0; k < K; k++) {
			const float d = valid[n][k] ? dist[n][k] : 1e9f;
			dmin = fminf(dmin, d);
		}
		float z = 0.0f;
		for (int k = 0; k < K; k++) {
			const float d = valid[n][k] ? dist[n][k] : 1e9f;
			z += expf(-(d - dmin) / T);
		}
		const float lz = logf(z);
		float h = 0.0f;
		for (int k = 0; k < K; k++) {
			const float d = valid[n][k] ? dist[n][k] : 1e9f;
			const float lr = -(d - dmin) / T - lz;
			h -= expf(lr) * lr;
		}
		H[n] = h;
	}
}
