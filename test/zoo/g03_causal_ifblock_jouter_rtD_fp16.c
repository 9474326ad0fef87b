/* Causal as one if-block around the whole j body (score, max) and around the j-outer sum + P.V
 * block, full j range, fp16, run-time D. */
#include <math.h>
void attn_ifblock(int B, int H, int N, int D, float scale,
                  const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
                  const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_ifblock) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float s[N];
                float m = -INFINITY;
                for (int j = 0; j < N; j++) {
                    if (j <= i) {
                        float x = 0.0f;
                        for (int d = 0; d < D; d++)
                            x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                        s[j] = x * scale;
                        m = fmaxf(m, s[j]);
                    }
                }
                float l = 0.0f;
                float acc[D];
                for (int d = 0; d < D; d++) acc[d] = 0.0f;
                for (int j = 0; j < N; j++) {
                    if (j <= i) {
                        float p = expf(s[j] - m);
                        l += p;
                        for (int d = 0; d < D; d++) acc[d] += p * (float)v[b][h][j][d];
                    }
                }
                for (int d = 0; d < D; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
            }
}
