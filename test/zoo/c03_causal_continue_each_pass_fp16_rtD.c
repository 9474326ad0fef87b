/* c03_causal_continue_each_pass_fp16_rtD.c: causal prefill ported from masked_fill, the
 * mask written as `if (j > i) continue;` at the top of every pass over the keys (each pass
 * runs over all N keys and skips the future ones).
 * Style: fp16 storage with (float) casts, run-time head dim D, scale as a parameter, max in
 * the score loop, d-outer P.V with the exponential recomputed. rolling(j),
 * parallel(b, h, i). */
#include <math.h>

void attn_skip(int B, int H, int N, int D, float scale,
               const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
               const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_skip) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float s[N];
                float m = -INFINITY;
                for (int j = 0; j < N; j++) {
                    if (j > i)
                        continue;
                    float x = 0.0f;
                    for (int d = 0; d < D; d++)
                        x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    s[j] = x * scale;
                    m = fmaxf(m, s[j]);
                }
                float l = 0.0f;
                for (int j = 0; j < N; j++) {
                    if (j > i)
                        continue;
                    l += expf(s[j] - m);
                }
                for (int d = 0; d < D; d++) {
                    float a = 0.0f;
                    for (int j = 0; j < N; j++) {
                        if (j > i)
                            continue;
                        a += expf(s[j] - m) * (float)v[b][h][j][d];
                    }
                    o[b][h][i][d] = (_Float16)(a / l);
                }
            }
}
