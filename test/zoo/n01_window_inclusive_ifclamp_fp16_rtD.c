/* n01_window_inclusive_ifclamp_fp16_rtD.c: bidirectional sliding-window attention
 * (Longformer-style local attention), fp16, run-time head dim.
 * Style: the window's ends are named int locals, the start clamped with a MAX macro, the
 * end clamped with an `if`, and the key loops run inclusive, `for (j = lo; j <= hi; j++)`
 * (C89 iterators declared at the top). Scores recomputed in each of the three passes;
 * 4-space indent. */
#include <math.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))

void local_attn(int B, int H, int N, int D, int W, float scale,
                const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
                const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
    int b, h, i, j, d;
#pragma fuse kernel(local_attn) parallel(b, h, i) rolling(j)
    for (b = 0; b < B; b++)
        for (h = 0; h < H; h++)
            for (i = 0; i < N; i++) {
                const int lo = MAX(0, i - W);
                int hi = i + W;
                if (hi > N - 1)
                    hi = N - 1;
                float m = -INFINITY;
                for (j = lo; j <= hi; j++) {
                    float x = 0.0f;
                    for (d = 0; d < D; d++)
                        x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    m = fmaxf(m, x * scale);
                }
                float z = 0.0f;
                for (j = lo; j <= hi; j++) {
                    float x = 0.0f;
                    for (d = 0; d < D; d++)
                        x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    z += expf(x * scale - m);
                }
                float acc[D];
                for (d = 0; d < D; d++)
                    acc[d] = 0.0f;
                for (j = lo; j <= hi; j++) {
                    float x = 0.0f;
                    for (d = 0; d < D; d++)
                        x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    const float p = expf(x * scale - m) / z;
                    for (d = 0; d < D; d++)
                        acc[d] += p * (float)v[b][h][j][d];
                }
                for (d = 0; d < D; d++)
                    o[b][h][i][d] = (_Float16)acc[d];
            }
}
