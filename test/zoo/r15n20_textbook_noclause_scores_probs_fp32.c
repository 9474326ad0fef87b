/* A student's attention for a course: no schedule clause, Q K^T into scores, softmax row by row,
 * then P V; all fp32, dims run-time ints n and d_k. */
#include <math.h>

void attention(int n, int d_k, const float Q[n][d_k], const float K[n][d_k], const float V[n][d_k],
	       float out[n][d_k])
{
#pragma fuse kernel(attention)
	for (int i = 0; i < n; i++) {
		float scores[n];
		for (int j = 0; j < n; j++) {
			scores[j] = 0;
			for (int t = 0; t < d_k; t++) scores[j] += Q[i][t] * K[j][t];
			scores[j] = scores[j] / sqrt(d_k);
		}
		float maxv = scores[0];
		for (int j = 1; j < n; j++)
			if (scores[j] > maxv) maxv = scores[j];
		float total = 0;
		for (int j = 0; j < n; j++) {
			scores[j] = exp(scores[j] - maxv);
			total = total + scores[j];
		}
		for (int t = 0; t < d_k; t++) {
			out[i][t] = 0;
			for (int j = 0; j < n; j++) out[i][t] += scores[j] / total * V[j][t];
		}
	}
}
