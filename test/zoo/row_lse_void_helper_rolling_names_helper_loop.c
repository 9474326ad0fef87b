/* row_lse_void_helper_rolling_names_helper_loop.c: log-sum-exp of each row through a void
 * helper `lse_row(const float *x, float *out, int n)` with its two loops over j, and the
 * schedule naming the helper's loop: rolling(j). Style: fp32, pointer row arguments
 * (x[t], &lse[t]), the result written through the out pointer. */
#include <math.h>
static void lse_row(const float *x, float *out, int n)
{
	float m = -INFINITY, z = 0.0f;
	for (int j = 0; j < n; j++) m = fmaxf(m, x[j]);
	for (int j = 0; j < n; j++) z += expf(x[j] - m);
	out[0] = m + logf(z);
}
void f(int T, int C, const float x[T][C], float lse[T])
{
#pragma fuse kernel(f) parallel(t) rolling(j)
	for (int t = 0; t < T; t++)
		lse_row(x[t], &lse[t], C);
}
