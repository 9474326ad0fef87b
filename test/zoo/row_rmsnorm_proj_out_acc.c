/* row_rmsnorm_proj_out_acc.c: RMSNorm followed by a projection, y = (x * rsqrt(mean x^2 +
 * eps)) @ w, written as a CPU matmul that accumulates into the output row: y[r][n] = 0,
 * then for each k, y[r][n] += xn * w[k][n] (k-outer, the cache-friendly order).
 * Style: fp32, run-time K and N, the norm factor as a local between the loops, no final
 * loop (the output holds the result once the k loop ends); rolling(k). fusecc accumulates
 * in a local y_acc[N] and stores it after the pass; the factor inv is applied once, at
 * the end (a deferred factor). Written for the output-as-accumulator work. */
#include <math.h>
void rmsnorm_proj(int R, int K, int N, float eps, const float x[R][K], const float w[K][N], float y[R][N])
{
#pragma fuse kernel(rmsnorm_proj) parallel(r) rolling(k)
    for (int r = 0; r < R; r++) {
        float ss = 0.0f;
        for (int k = 0; k < K; k++)
            ss += x[r][k] * x[r][k];
        const float inv = 1.0f / sqrtf(ss / K + eps);
        for (int n = 0; n < N; n++)
            y[r][n] = 0.0f;
        for (int k = 0; k < K; k++) {
            const float xn = x[r][k] * inv;
            for (int n = 0; n < N; n++)
                y[r][n] += xn * w[k][n];
        }
    }
}
