/* row_balanced_bce_long_counts_ifelse_inner_fp32: class-balanced BCE-with-logits over an
 * [N][M] matrix of labels: the losses of the positive and the negative labels summed apart
 * (double), with their counts (long, `npos++` / `nneg++`), all inside the loop over the
 * row's elements under an if / else on the label; the balanced mean stored after the loop.
 * Style: a numpy port (pos = y > 0.5; loss[pos].mean()) by a researcher: double sums,
 * long counters, the stable log1p form. */
#include <math.h>

void balanced_bce(int N, int M, const float x[N][M], const float y[N][M], float *loss)
{
    double pos_sum = 0.0, neg_sum = 0.0;
    long npos = 0, nneg = 0;
#pragma fuse kernel(balanced_bce) parallel(i)
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < M; j++) {
            float v = x[i][j];
            float l = fmaxf(v, 0.0f) - v * y[i][j] + log1pf(expf(-fabsf(v)));
            if (y[i][j] > 0.5f) { pos_sum += l; npos++; }
            else { neg_sum += l; nneg++; }
        }
    }
    *loss = (float)(0.5 * (npos ? pos_sum / npos : 0.0) + 0.5 * (nneg ? neg_sum / nneg : 0.0));
}
