/* PROBE (aliasing through a helper): llama2.c's rmsnorm(o, x, weight, size) called in place for
 * the final norm, rmsnorm(x, x, w->rms_final_weight, dim): o and x point to the same row, and the
 * row is read by the sum before the loop overwrites it. */
#include <math.h>

static void rmsnorm(float *o, float *x, const float *weight, int size)
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

void final_norm(int B, int dim, float x[B][dim], const float rms_final_weight[dim])
{
#pragma fuse kernel(final_norm) parallel(b)
	for (int b = 0; b < B; b++)
		rmsnorm(x[b], x[b], rms_final_weight, dim);
}
