/* c06_window_break_continue_fp16_rtD.c: sliding-window causal prefill (Mistral-style, W
 * keys up to the query) with the window written as jumps in each pass over the keys:
 * `if (j > i) break;` stops at the diagonal, `if (j <= i - W) continue;` skips the keys
 * that fell out of the window.
 * Style: fp16 storage with (float) casts, run-time head dim D, window W as a parameter,
 * scale computed before the region, max in the score loop, P.V with d outer and the
 * exponential recomputed. rolling(j), parallel(b, h, i). */
#include <math.h>

void swa_jumps(int B, int H, int N, int D, int W,
               const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
               const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
    const float scale = 1.0f / sqrtf((float)D);

#pragma fuse kernel(swa_jumps) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float s[N];
                float m = -INFINITY;
                for (int j = 0; j < N; j++) {
                    if (j > i) break;
                    if (j <= i - W) continue;
                    float x = 0.0f;
                    for (int d = 0; d < D; d++)
                        x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    s[j] = x * scale;
                    m = fmaxf(m, s[j]);
                }
                float l = 0.0f;
                for (int j = 0; j < N; j++) {
                    if (j > i) break;
                    if (j <= i - W) continue;
                    l += expf(s[j] - m);
                }
                for (int d = 0; d < D; d++) {
                    float a = 0.0f;
                    for (int j = 0; j < N; j++) {
                        if (j > i) break;
                        if (j <= i - W) continue;
                        a += expf(s[j] - m) * (float)v[b][h][j][d];
                    }
                    o[b][h][i][d] = (_Float16)(a / l);
                }
            }
}
