/* softmax(x, dim=0) of a 2-D x[N][C] as a student writes it: for each column c, max, sum and
 * normalise down the rows (strided reads). */
#include <math.h>

void softmax_dim0(int N, int C, const float x[N][C], float y[N][C])
{
#pragma fuse kernel(softmax_dim0) parallel(c)
	for (int c = 0; c < C; c++) {
		float mx = -INFINITY;
		for (int n = 0; n < N; n++)
			if (x[n][c] > mx) mx = x[n][c];
		float sum = 0.0f;
		for (int n = 0; n < N; n++) sum += expf(x[n][c] - mx);
		for (int n = 0; n < N; n++) y[n][c] = expf(x[n][c] - mx) / sum;
	}
}
