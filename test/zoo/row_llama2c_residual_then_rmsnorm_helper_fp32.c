/* row_llama2c_residual_then_rmsnorm_helper_fp32.c: llama2.c's forward per token, the residual
 * added in place (`x[j] += xb2[j]`) then its rmsnorm(o, x, weight, size) helper over the
 * updated row. fp32, dim a run-time int, the helper as llama2.c writes it. */
#include <math.h>
static void rmsnorm(float *o, float *x, const float *weight, int size)
{
    float ss = 0.0f;
    for (int j = 0; j < size; j++) ss += x[j] * x[j];
    ss /= size;
    ss += 1e-5f;
    ss = 1.0f / sqrtf(ss);
    for (int j = 0; j < size; j++) o[j] = weight[j] * (ss * x[j]);
}
void resid_norm(int T, int dim, float x[T][dim], const float xb2[T][dim], const float w[dim], float xb[T][dim])
{
#pragma fuse kernel(resid_norm) parallel(t) rolling(j)
    for (int t = 0; t < T; t++) {
        for (int j = 0; j < dim; j++) x[t][j] += xb2[t][j];
        rmsnorm(xb[t], x[t], w, dim);
    }
}
