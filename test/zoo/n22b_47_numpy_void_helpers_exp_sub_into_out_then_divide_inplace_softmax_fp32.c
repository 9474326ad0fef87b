/* numpy-minded stable softmax out of tiny void helpers, one per numpy call:
 * np_max(x) -> m; np_exp_sub(out, x, m) (out = exp(x - m)); s = np_sum(out); np_div_(out, s). */
#include <math.h>

static float np_max(const float *x, int n)
{
	float m = -INFINITY;
	for (int i = 0; i < n; i++)
		m = fmaxf(m, x[i]);
	return m;
}
static void np_exp_sub(float *out, const float *x, float m, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = expf(x[i] - m);
}
static float np_sum(const float *x, int n)
{
	float s = 0.0f;
	for (int i = 0; i < n; i++)
		s += x[i];
	return s;
}
static void np_div_(float *x, float s, int n)
{
	for (int i = 0; i < n; i++)
		x[i] /= s;
}

void softmax_np(int N, int V, const float x[N][V], float out[N][V])
{
#pragma fuse kernel(softmax_np) parallel(r)
	for (int r = 0; r < N; r++) {
		const float m = np_max(x[r], V);
		np_exp_sub(out[r], x[r], m, V);
		const float s = np_sum(out[r], V);
		np_div_(out[r], s, V);
	}
}
