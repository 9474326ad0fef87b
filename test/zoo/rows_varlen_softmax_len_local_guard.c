/* Softmax over ragged rows, each row's length copied to a local first and empty rows
 * skipped (`const int n = lens[r]; if (n == 0) continue;`), as a ggml-style CPU kernel
 * writes it: the max, the sum of exponentials, then the normalised values. */
#include <math.h>

void ragged_softmax(int R, int C, const int lens[R], const float x[R][C], float y[R][C])
{
#pragma fuse kernel(ragged_softmax) parallel(r)
	for (int r = 0; r < R; r++) {
		const int n = lens[r];
		if (n == 0)
			continue;
		float max = -INFINITY;
		for (int i = 0; i < n; i++)
			if (x[r][i] > max)
				max = x[r][i];
		float sum = 0.0f;
		for (int i = 0; i < n; i++)
			sum += expf(x[r][i] - max);
		const float inv = 1.0f / sum;
		for (int i = 0; i < n; i++)
			y[r][i] = expf(x[r][i] - max) * inv;
	}
}
