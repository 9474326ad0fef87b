/* row_log_softmax_inplace_minus_lse_fp32.c: log_softmax written in place, the row's
 * log-sum-exp subtracted from each logit (`x[r][c] -= lse`), as a training script's
 * hand-written loss does before picking the targets. fp32, no helper. */
#include <math.h>
void lsm(int R, int C, float x[R][C])
{
#pragma fuse kernel(lsm) parallel(r) rolling(c)
    for (int r = 0; r < R; r++) {
        float m = -INFINITY;
        for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
        float s = 0.0f;
        for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
        const float lse = m + logf(s);
        for (int c = 0; c < C; c++) x[r][c] -= lse;
    }
}
