/* numpy-minded log-softmax with helpers that take a row pointer and a length:
 * row_max(x, n), row_sumexp(x, n, m); bf16 in, fp32 out. */
#include <math.h>
#include "fusecc.h"

static float row_max(const fusecc_bf16 *x, int n)
{
	float m = -INFINITY;
	for (int c = 0; c < n; c++) m = fmaxf(m, fusecc_bf16_to_float(x[c]));
	return m;
}

static float row_sumexp(const fusecc_bf16 *x, int n, float m)
{
	float s = 0.0f;
	for (int c = 0; c < n; c++) s += expf(fusecc_bf16_to_float(x[c]) - m);
	return s;
}

void log_softmax_np(int R, int C, const fusecc_bf16 x[R][C], float y[R][C])
{
#pragma fuse kernel(log_softmax_np) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		const float m = row_max(x[r], C);
		const float lse = m + logf(row_sumexp(x[r], C, m));
		for (int c = 0; c < C; c++) y[r][c] = fusecc_bf16_to_float(x[r][c]) - lse;
	}
}
