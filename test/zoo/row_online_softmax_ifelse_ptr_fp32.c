/* row_online_softmax_ifelse_ptr_fp32.c: softmax with the online normaliser written as an
 * if/else (Milakov & Gimelshein's algorithm as some port it): when the max grows the sum is
 * rescaled and the element counts 1, otherwise its exponential is added:
 * `if (xv > m) { d = d * expf(m - xv) + 1.0f; m = xv; } else { d += expf(xv - m); }`.
 * Flat fp32 pointers, a reciprocal between the loops. rolling(v), parallel(t). */
#include <math.h>

void online_softmax(int T, int V, const float *logits, float *probs)
{
#pragma fuse kernel(online_softmax) parallel(t) rolling(v)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY, d = 0.0f;
		for (int v = 0; v < V; v++) {
			float xv = logits[t * V + v];
			if (xv > m) {
				d = d * expf(m - xv) + 1.0f;
				m = xv;
			} else {
				d += expf(xv - m);
			}
		}
		float rd = 1.0f / d;
		for (int v = 0; v < V; v++)
			probs[t * V + v] = expf(logits[t * V + v] - m) * rd;
	}
}
