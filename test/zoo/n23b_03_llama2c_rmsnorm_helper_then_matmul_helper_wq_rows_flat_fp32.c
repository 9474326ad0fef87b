/* llama2.c's forward, the first two lines of a layer for a batch of tokens: rmsnorm(xb, x,
 * w) then matmul(q, xb, wq, dim, dim) with llama2.c's matmul (W (d,n) @ x (n,) -> xout
 * (d,): xout[i] = sum_j w[i * n + j] * x[j]). The helpers are llama2.c's, verbatim but
 * for the batch loop around them. */
#include <math.h>

static void rmsnorm(float *o, const float *x, const float *weight, int size)
{
	float ss = 0.0f;
	for (int j = 0; j < size; j++)
		ss += x[j] * x[j];
	ss /= size;
	ss += 1e-5f;
	ss = 1.0f / sqrtf(ss);
	for (int j = 0; j < size; j++)
		o[j] = weight[j] * (ss * x[j]);
}

static void matmul(float *xout, const float *x, const float *w, int n, int d)
{
	for (int i = 0; i < d; i++) {
		float val = 0.0f;
		for (int j = 0; j < n; j++)
			val += w[i * n + j] * x[j];
		xout[i] = val;
	}
}

void attn_norm_qproj(int T, int dim, const float *x, const float *rms_att_weight,
		     const float *wq, float *xb, float *q)
{
#pragma fuse kernel(attn_norm_qproj) parallel(t)
	for (int t = 0; t < T; t++) {
		rmsnorm(xb + t * dim, x + t * dim, rms_att_weight, dim);
		matmul(q + t * dim, xb + t * dim, wq, dim, dim);
	}
}
