/* LLM.int8-style outlier statistics per row: mean and std (two passes), then the number of
 * elements more than k standard deviations from the mean (an int count under a condition
 * that reads the row's statistics). */
#include <math.h>

void outliers(int R, int C, float k, const float x[R][C], int nout[R], float stdv[R])
{
#pragma fuse kernel(outliers) parallel(r)
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += x[r][c];
		const float mu = s / C;
		float v = 0.0f;
		for (int c = 0; c < C; c++) v += (x[r][c] - mu) * (x[r][c] - mu);
		const float sd = sqrtf(v / C);
		int n = 0;
		for (int c = 0; c < C; c++)
			if (fabsf(x[r][c] - mu) > k * sd) n++;
		nout[r] = n;
		stdv[r] = sd;
	}
}
