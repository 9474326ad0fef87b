/* Soft nearest-neighbour regression (a kernel-regression head): weights = softmin(d / tau) over the
 * distances to M reference points, written with the minimum (fminf) and exp(-(d - dmin) / tau),
 * prediction = sum w * y_ref. A classical-ML engineer's C. */
#include <math.h>

void soft_knn(int Q, int M, float tau, const float dist[Q][M], const float y_ref[M], float pred[Q])
{
#pragma fuse kernel(soft_knn) parallel(q)
	for (int q = 0; q < Q; q++) {
		float dmin = INFINITY;
		for (int j = 0; j < M; j++)
			dmin = fminf(dmin, dist[q][j]);
		float den = 0.0f, num = 0.0f;
		for (int j = 0; j < M; j++) {
			const float w = expf(-(dist[q][j] - dmin) / tau);
			den += w;
			num += w * y_ref[j];
		}
		pred[q] = num / den;
	}
}
