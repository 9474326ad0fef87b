/* Written by someone who thinks in numpy: a helper for each vector op (dot, max, sum of exps,
 * axpy), the region a loop over rows calling them; fp32 storage, head dim 64. */
#include <math.h>

static inline float dot(const float *a, const float *b, int n)
{
	float s = 0.0f;
	for (int t = 0; t < n; t++) s += a[t] * b[t];
	return s;
}

static float vmax(const float *x, int n)
{
	float m = -INFINITY;
	for (int t = 0; t < n; t++) m = fmaxf(m, x[t]);
	return m;
}

static float sum_exp(float *x, int n, float shift)
{
	float s = 0.0f;
	for (int t = 0; t < n; t++) { x[t] = expf(x[t] - shift); s += x[t]; }
	return s;
}

void np_attention(int BH, int T, const float q[BH][T][64], const float k[BH][T][64], const float v[BH][T][64],
		  float y[BH][T][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(np_attention)
	for (int bh = 0; bh < BH; bh++)
		for (int t = 0; t < T; t++) {
			float w[T];
			for (int u = 0; u <= t; u++) w[u] = dot(q[bh][t], k[bh][u], 64) * scale;
			const float mx = vmax(w, t + 1);
			const float z = sum_exp(w, t + 1, mx);
			for (int c = 0; c < 64; c++) {
				float acc = 0.0f;
				for (int u = 0; u <= t; u++) acc += w[u] * v[bh][u][c];
				y[bh][t][c] = acc / z;
			}
		}
}
