/* The textbook definition with no max subtraction: exp(x_i) / sum_j exp(x_j). A first-year's
 * port; overflows for logits above ~88 exactly as the C does. */
#include <math.h>

void softmax_naive(int N, int V, const float x[N][V], float y[N][V])
{
#pragma fuse kernel(softmax_naive) parallel(i)
	for (int i = 0; i < N; i++) {
		float sum = 0.0f;
		for (int j = 0; j < V; j++)
			sum += expf(x[i][j]);
		for (int j = 0; j < V; j++)
			y[i][j] = expf(x[i][j]) / sum;
	}
}
