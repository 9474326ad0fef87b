/* scipy.special.softmax ported by a numpy person: small static helpers for each vector op
 * (vmax, vsub_exp, vsum, vscale) called per row on row pointers; fp32, run-time width. */
#include <math.h>

static float vmax(const float *x, int n)
{
	float m = -INFINITY;
	for (int i = 0; i < n; i++) m = fmaxf(m, x[i]);
	return m;
}

static float vsum_exp(const float *x, float shift, int n)
{
	float s = 0.0f;
	for (int i = 0; i < n; i++) s += expf(x[i] - shift);
	return s;
}

static void vexp_scale(float *y, const float *x, float shift, float k, int n)
{
	for (int i = 0; i < n; i++) y[i] = expf(x[i] - shift) * k;
}

void softmax_rows(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_rows) parallel(r)
	for (int r = 0; r < R; r++) {
		const float m = vmax(x[r], C);
		const float s = vsum_exp(x[r], m, C);
		vexp_scale(y[r], x[r], m, 1.0f / s, C);
	}
}
