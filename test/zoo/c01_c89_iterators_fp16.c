/* c01_c89_iterators_fp16.c: prefill attention written the C89 way, as in code that must
 * also build with old compilers: every iterator declared once at the top of the function
 * body and reused by several loops (j counts three, d two), and the row's locals declared
 * together without values and assigned later (float s[N], m, l, x, a;).
 * Style: fp16 storage with (float) casts, #define D 64, scale as a parameter, max in the
 * score loop, d-outer P.V with the exponential recomputed. rolling(j), parallel(b, h, i). */
#include <math.h>

#define D 64

void attn89(int B, int H, int N, float scale,
            const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
            const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
    int b, h, i, j, d;

#pragma fuse kernel(attn89) parallel(b, h, i) rolling(j)
    for (b = 0; b < B; b++)
        for (h = 0; h < H; h++)
            for (i = 0; i < N; i++) {
                float s[N], m, l, x, a;
                m = -INFINITY;
                for (j = 0; j < N; j++) {
                    x = 0.0f;
                    for (d = 0; d < D; d++)
                        x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    s[j] = x * scale;
                    m = fmaxf(m, s[j]);
                }
                l = 0.0f;
                for (j = 0; j < N; j++)
                    l += expf(s[j] - m);
                for (d = 0; d < D; d++) {
                    a = 0.0f;
                    for (j = 0; j < N; j++)
                        a += expf(s[j] - m) * (float)v[b][h][j][d];
                    o[b][h][i][d] = (_Float16)(a / l);
                }
            }
}
