/* softmax with temperature: the max seeded from column 0, a local per column. */
#include <math.h>
void softmax_t(int R, int C, float T, const float x[R][C], float y[R][C])
{
	const float it = 1.0f / T;
#pragma fuse kernel(softmax_t) parallel(r)
	for (int r = 0; r < R; r++) {
		float mx = x[r][0] * it;
		for (int c = 1; c < C; c++) {
			float v = x[r][c] * it;
			if (v > mx) mx = v;
		}
		float sum = 0.0f;
		for (int c = 0; c < C; c++) sum += expf(x[r][c] * it - mx);
		for (int c = 0; c < C; c++) y[r][c] = expf(x[r][c] * it - mx) / sum;
	}
}
