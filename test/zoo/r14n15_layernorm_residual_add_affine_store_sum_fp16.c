/* Fused add + LayerNorm (pre-LN transformer): h = x + res stored, then LN(h) * g + b. */
#include <math.h>
void add_ln(int R, int C, float eps, const _Float16 x[R][C], _Float16 res[R][C], const float g[C],
	    const float bta[C], _Float16 y[R][C])
{
#pragma fuse kernel(add_ln) parallel(r)
	for (int r = 0; r < R; r++) {
		float mean = 0;
		for (int c = 0; c < C; c++) {
			float hv = (float)x[r][c] + (float)res[r][c];
			res[r][c] = (_Float16)hv;
			mean += hv;
		}
		mean /= C;
		float var = 0;
		for (int c = 0; c < C; c++) { float dd = (float)res[r][c] - mean; var += dd * dd; }
		float rstd = 1.0f / sqrtf(var / C + eps);
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)(((float)res[r][c] - mean) * rstd * g[c] + bta[c]);
	}
}
