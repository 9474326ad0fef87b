/* numpy-minded port of scipy.special.softmax(x / T, axis=-1): small helpers row_max and
 * row_sum_exp returning floats, the temperature divided in every helper, fp16 logits. */
#include <math.h>

static float row_max(const _Float16 *x, int n, float inv_t)
{
	float m = -INFINITY;
	for (int k = 0; k < n; k++)
		m = fmaxf(m, (float)x[k] * inv_t);
	return m;
}

static float row_sum_exp(const _Float16 *x, int n, float inv_t, float m)
{
	float s = 0.0f;
	for (int k = 0; k < n; k++)
		s += expf((float)x[k] * inv_t - m);
	return s;
}

void softmax_temp(int R, int C, float temperature, const _Float16 x[R][C], float y[R][C])
{
	const float inv_t = 1.0f / temperature;
#pragma fuse kernel(softmax_temp) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = row_max(x[r], C, inv_t);
		float s = row_sum_exp(x[r], C, inv_t, m);
		float inv = 1.0f / s;
		for (int c = 0; c < C; c++)
			y[r][c] = expf((float)x[r][c] * inv_t - m) * inv;
	}
}
