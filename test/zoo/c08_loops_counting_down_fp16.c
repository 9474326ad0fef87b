/* c08_loops_counting_down_fp16.c: prefill attention with loops that count down, as in code
 * ported from a backward pass or written with `for (i = n; i-- > 0;)` habits turned into
 * plain decrements: rows from the last, keys from the last, the head dim from the top.
 * Every iteration writes its own elements or adds into a sum or a max, so the order does
 * not matter.
 * Style: fp16 storage with (float) casts, #define D 64, scale as a parameter, max in the
 * score loop, d-outer P.V with the exponential recomputed. rolling(j), parallel(b, h, i). */
#include <math.h>

#define D 64

void attn_down(int B, int H, int N, float scale,
               const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
               const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_down) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = N - 1; i >= 0; i--) {
                float s[N];
                float m = -INFINITY;
                for (int j = N - 1; j >= 0; j--) {
                    float x = 0.0f;
                    for (int d = D - 1; d >= 0; --d)
                        x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    s[j] = x * scale;
                    m = fmaxf(m, s[j]);
                }
                float l = 0.0f;
                for (int j = N - 1; j >= 0; j--)
                    l += expf(s[j] - m);
                for (int d = D - 1; d >= 0; d--) {
                    float a = 0.0f;
                    for (int j = N - 1; j >= 0; j--)
                        a += expf(s[j] - m) * (float)v[b][h][j][d];
                    o[b][h][i][d] = (_Float16)(a / l);
                }
            }
}
