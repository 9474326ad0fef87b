/* A scientist's softmax with the sum of exponentials in double (exp of double), max in float,
 * probabilities stored as float; run-time row length. */
#include <math.h>

void softmax_dsum(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_dsum) parallel(r)
	for (int r = 0; r < R; r++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++) if (x[r][c] > mx) mx = x[r][c];
		double sum = 0.0;
		for (int c = 0; c < C; c++) sum += exp((double)x[r][c] - mx);
		for (int c = 0; c < C; c++) y[r][c] = (float)(exp((double)x[r][c] - mx) / sum);
	}
}
