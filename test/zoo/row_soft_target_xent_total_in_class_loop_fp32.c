/* row_soft_target_xent_total_in_class_loop_fp32: soft-target cross-entropy (PyTorch cross_entropy with probability targets, reduction
 * 'sum'): the cross-row total added to inside the loop over classes, after the max and sum. */
#include <math.h>
void soft_xent(int R, int C, const float x[R][C], const float y[R][C], float *loss)
{
    float total = 0.0f;
#pragma fuse kernel(soft_xent) parallel(r) rolling(c)
    for (int r = 0; r < R; r++) {
        float m = -INFINITY, s = 0.0f;
        for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
        for (int c = 0; c < C; c++) s += expf(x[r][c] - m);
        float lse = m + logf(s);
        for (int c = 0; c < C; c++) total -= y[r][c] * (x[r][c] - lse);
    }
    *loss = total;
}
