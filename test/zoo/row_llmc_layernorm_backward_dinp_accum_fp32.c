/* row_llmc_layernorm_backward_dinp_accum_fp32.c: llm.c's layernorm_backward per row (the
 * input gradient part): two sums over the row, then dinp accumulated in place (`+=`, the
 * gradient of other uses kept). fp32, saved mean and rstd read per row. */
#include <math.h>
void ln_bwd(int T, int C, const float inp[T][C], const float dout[T][C], const float w[C],
            const float mean[T], const float rstd[T], float dinp[T][C])
{
#pragma fuse kernel(ln_bwd) parallel(t) rolling(c)
    for (int t = 0; t < T; t++) {
        float dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;
        for (int c = 0; c < C; c++) {
            float norm = (inp[t][c] - mean[t]) * rstd[t];
            float dnorm = w[c] * dout[t][c];
            dnorm_mean += dnorm;
            dnorm_norm_mean += dnorm * norm;
        }
        dnorm_mean /= C;
        dnorm_norm_mean /= C;
        for (int c = 0; c < C; c++) {
            float norm = (inp[t][c] - mean[t]) * rstd[t];
            float dnorm = w[c] * dout[t][c];
            dinp[t][c] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * rstd[t];
        }
    }
}
