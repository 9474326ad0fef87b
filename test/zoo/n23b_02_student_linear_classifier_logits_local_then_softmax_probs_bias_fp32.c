/* A student's linear classifier + softmax (CS231n assignment style): scores = W x + b
 * into a local array, then the usual max / exp / sum / divide. W is [C][D] (one row per
 * class), plain fp32, sizes as #defines like the assignment's. */
#include <math.h>
#define C 10
#define D 3072

void linear_softmax(int N, const float X[N][D], const float W[C][D], const float b[C], float P[N][C])
{
#pragma fuse kernel(linear_softmax) parallel(i)
	for (int i = 0; i < N; i++) {
		float scores[C];
		for (int c = 0; c < C; c++) {
			scores[c] = b[c];
			for (int d = 0; d < D; d++)
				scores[c] += W[c][d] * X[i][d];
		}
		float maxs = scores[0];
		for (int c = 1; c < C; c++)
			if (scores[c] > maxs)
				maxs = scores[c];
		float sum = 0;
		for (int c = 0; c < C; c++) {
			scores[c] = expf(scores[c] - maxs);
			sum += scores[c];
		}
		for (int c = 0; c < C; c++)
			P[i][c] = scores[c] / sum;
	}
}
