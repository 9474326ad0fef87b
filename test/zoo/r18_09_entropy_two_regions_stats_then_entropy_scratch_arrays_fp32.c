/* Entropy of the softmax written as two passes in one function, as a profiler-minded engineer
 * splits kernels: region 1 stores each row's max and log-normaliser in caller scratch, region 2
 * reads them back to compute the entropy and the probabilities. fp32. */
#include <math.h>

void softmax_entropy(int R, int C, const float x[R][C], float row_max[R], float row_lz[R], float p[R][C], float ent[R])
{
#pragma fuse kernel(stats) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++) z += expf(x[r][c] - m);
		row_max[r] = m;
		row_lz[r] = logf(z);
	}
#pragma fuse kernel(entropy) parallel(r)
	for (int r = 0; r < R; r++) {
		float h = 0.0f;
		for (int c = 0; c < C; c++) {
			const float lp = x[r][c] - row_max[r] - row_lz[r];
			p[r][c] = expf(lp);
			h -= p[r][c] * lp;
		}
		ent[r] = h;
	}
}
