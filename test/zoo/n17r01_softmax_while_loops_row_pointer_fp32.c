/* Softmax over rows as a C programmer writes it: `const float *row = x + r * C`, while loops
 * with explicit counters, output through `float *out = y + r * C`. */
#include <math.h>

void softmax_rows_while(int R, int C, const float *x, float *y)
{
#pragma fuse kernel(softmax_rows_while) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		const float *row = x + r * C;
		float *out = y + r * C;
		float mx = -INFINITY;
		int c = 0;
		while (c < C) { mx = fmaxf(mx, row[c]); c++; }
		float sum = 0.0f;
		c = 0;
		while (c < C) { sum += expf(row[c] - mx); c++; }
		const float inv = 1.0f / sum;
		c = 0;
		while (c < C) { out[c] = expf(row[c] - mx) * inv; c++; }
	}
}
