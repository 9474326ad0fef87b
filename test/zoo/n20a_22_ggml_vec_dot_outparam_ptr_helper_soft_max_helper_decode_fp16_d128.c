/* ggml-flavoured decode: ggml_vec_dot_f16(n, &s, x, y) writes the dot through a float* out-param
 * (`*s = sumf;`), scores scaled in a second loop (ggml_scale), ggml_soft_max as a helper over the row,
 * then a P.V helper accumulating into the output row. */
#include <math.h>
static void vec_dot_f16(int n, float *s, const _Float16 *x, const _Float16 *y)
{
	float sumf = 0.0f;
	for (int i = 0; i < n; ++i) sumf += (float)x[i] * (float)y[i];
	*s = sumf;
}
static void soft_max_row(int n, float *x)
{
	float max = -INFINITY;
	for (int i = 0; i < n; ++i) max = fmaxf(max, x[i]);
	float sum = 0.0f;
	for (int i = 0; i < n; ++i) { x[i] = expf(x[i] - max); sum += x[i]; }
	for (int i = 0; i < n; ++i) x[i] /= sum;
}
void ggml_decode(int n_head, int n_kv, float kq_scale, const _Float16 q[n_head][128], const _Float16 k[n_head][n_kv][128],
		 const _Float16 v[n_head][n_kv][128], float kqv[n_head][128])
{
#pragma fuse kernel(ggml_decode) parallel(h) splitk(j)
	for (int h = 0; h < n_head; h++) {
		float kq[n_kv];
		for (int j = 0; j < n_kv; j++) vec_dot_f16(128, &kq[j], q[h], k[h][j]);
		for (int j = 0; j < n_kv; j++) kq[j] *= kq_scale;
		soft_max_row(n_kv, kq);
		for (int d = 0; d < 128; d++) {
			float acc = 0.0f;
			for (int j = 0; j < n_kv; j++) acc += kq[j] * (float)v[h][j][d];
			kqv[h][d] = acc;
		}
	}
}
