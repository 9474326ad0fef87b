/* Milakov & Gimelshein's online normaliser, as an HPC engineer writes it after reading the paper:
 * one pass for max and sum with the rescale, then the probabilities. unsigned counters. */
#include <math.h>

void online_softmax(unsigned N, unsigned V, const _Float16 *x, _Float16 *y)
{
#pragma fuse kernel(online_softmax) parallel(n)
	for (unsigned n = 0; n < N; n++) {
		float m = -INFINITY, d = 0.0f;
		for (unsigned v = 0; v < V; v++) {
			const float xv = (float)x[n * V + v];
			const float m_new = fmaxf(m, xv);
			d = d * expf(m - m_new) + expf(xv - m_new);
			m = m_new;
		}
		for (unsigned v = 0; v < V; v++)
			y[n * V + v] = (_Float16)(expf((float)x[n * V + v] - m) / d);
	}
}
