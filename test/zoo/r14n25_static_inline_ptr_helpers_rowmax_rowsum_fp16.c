/* numpy-minded helpers with pointer arguments: row_max, row_sumexp, then log_softmax. */
#include <math.h>
static inline float row_max(const _Float16 *restrict p, int n)
{
	float m = -INFINITY;
	for (int c = 0; c < n; c++) m = fmaxf(m, (float)p[c]);
	return m;
}
static inline float row_sumexp(const _Float16 *restrict p, int n, float m)
{
	float s = 0;
	for (int c = 0; c < n; c++) s += expf((float)p[c] - m);
	return s;
}
void logsm(int R, int C, const _Float16 x[R][C], _Float16 y[R][C])
{
#pragma fuse kernel(logsm) parallel(r)
	for (int r = 0; r < R; r++) {
		const float m = row_max(x[r], C);
		const float ls = logf(row_sumexp(x[r], C, m));
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)((float)x[r][c] - m - ls);
	}
}
