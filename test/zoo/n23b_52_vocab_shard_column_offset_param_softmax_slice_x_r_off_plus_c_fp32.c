/* Softmax over a slice of each row starting at a run-time column offset (the real vocab
 * inside a padded lm_head output: columns [off, off + V) of a row of width W). A CUDA
 * programmer's flat pointers. */
#include <math.h>

void softmax_slice(int R, int W, int off, int V, const float *x, float *y)
{
#pragma fuse kernel(softmax_slice) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < V; c++)
			m = fmaxf(m, x[r * W + off + c]);
		float s = 0.0f;
		for (int c = 0; c < V; c++)
			s += expf(x[r * W + off + c] - m);
		for (int c = 0; c < V; c++)
			y[r * V + c] = expf(x[r * W + off + c] - m) / s;
	}
}
