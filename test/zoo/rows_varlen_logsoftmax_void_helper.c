/* Log-softmax of ragged rows through a void helper that returns early on an empty row,
 * called once per row with that row's length (a port of a numpy loop over a list of
 * arrays); half-precision logits, float results. */
#include <math.h>

static void log_softmax_row(const _Float16 *x, float *out, int n)
{
	if (n <= 0)
		return;
	float m = -INFINITY;
	for (int i = 0; i < n; i++)
		m = fmaxf(m, (float)x[i]);
	float s = 0.0f;
	for (int i = 0; i < n; i++)
		s += expf((float)x[i] - m);
	float lse = m + logf(s);
	for (int i = 0; i < n; i++)
		out[i] = (float)x[i] - lse;
}

void ragged_log_softmax(int R, int C, const int len[R], const _Float16 x[R][C], float out[R][C])
{
#pragma fuse kernel(ragged_log_softmax) parallel(r)
	for (int r = 0; r < R; r++)
		log_softmax_row(x[r], out[r], len[r]);
}
