/* pf_two_values_one_pv_loop_causal_rtD_fp16.c: one softmax shared by two value tensors (v and v2,\n * as a gated or multi-value head does), both products accumulated in ONE d loop\n * (`acc[d] += p * v; acc2[d] += p * v2;`), run-time D, causal by j <= i, scale as a\n * float parameter. rolling(j). */
#include <math.h>
void two_v(int B, int H, int N, int D, float scale,
           const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
           const _Float16 v[B][H][N][D], const _Float16 v2[B][H][N][D],
           _Float16 o[B][H][N][D], _Float16 o2[B][H][N][D])
{
#pragma fuse kernel(two_v) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float m = -INFINITY;
                for (int j = 0; j <= i; j++) {
                    float s = 0.0f;
                    for (int d = 0; d < D; d++)
                        s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    m = fmaxf(m, s * scale);
                }
                float l = 0.0f;
                float acc[D], acc2[D];
                for (int d = 0; d < D; d++) acc[d] = 0.0f;
                for (int d = 0; d < D; d++) acc2[d] = 0.0f;
                for (int j = 0; j <= i; j++) {
                    float s = 0.0f;
                    for (int d = 0; d < D; d++)
                        s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    float p = expf(s * scale - m);
                    l += p;
                    for (int d = 0; d < D; d++) {
                        acc[d] += p * (float)v[b][h][j][d];
                        acc2[d] += p * (float)v2[b][h][j][d];
                    }
                }
                for (int d = 0; d < D; d++) {
                    o[b][h][i][d] = (_Float16)(acc[d] / l);
                    o2[b][h][i][d] = (_Float16)(acc2[d] / l);
                }
            }
}
