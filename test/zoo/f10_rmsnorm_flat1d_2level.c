/* RMSNorm on a flat [B*T*C] buffer with a two-level row offset ((b * T + t) * C + c),
 * fp32, run-time C, parallel(b, t). */
#include <math.h>
void rms_flat(int B, int T, int C, float eps, const float x[B * T * C], const float w[C],
              float y[B * T * C])
{
#pragma fuse kernel(rms_flat) parallel(b, t)
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            const int row = (b * T + t) * C;
            float ss = 0.0f;
            for (int c = 0; c < C; c++) ss += x[row + c] * x[row + c];
            const float inv = 1.0f / sqrtf(ss / C + eps);
            for (int c = 0; c < C; c++) y[row + c] = x[row + c] * inv * w[c];
        }
}
