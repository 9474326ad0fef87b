/* c04_causal_continue_score_pass_fp16.c: causal prefill where only the score pass skips
 * the future keys with `if (j > i) continue;` (it runs over all N, as the buffer does) and
 * the later passes bound their loops by j <= i.
 * Style: fp16 storage with (float) casts, #define D 64, scale as a parameter, max in the
 * score loop, d-outer P.V with the exponential recomputed. rolling(j), parallel(b, h, i). */
#include <math.h>

#define D 64

void attn_cont(int B, int H, int N, float scale,
               const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
               const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_cont) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float s[N];
                float m = -INFINITY;
                for (int j = 0; j < N; j++) {
                    if (j > i) continue;
                    float x = 0.0f;
                    for (int d = 0; d < D; d++)
                        x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    s[j] = x * scale;
                    m = fmaxf(m, s[j]);
                }
                float l = 0.0f;
                for (int j = 0; j <= i; j++) l += expf(s[j] - m);
                for (int d = 0; d < D; d++) {
                    float a = 0.0f;
                    for (int j = 0; j <= i; j++) a += expf(s[j] - m) * (float)v[b][h][j][d];
                    o[b][h][i][d] = (_Float16)(a / l);
                }
            }
}
