/* Score buffer with a compile-time maximum: float s[MAX_SEQ], fp16, #define D 128, causal if-guard
 * inside each pass (if (j <= i) l += ...). */
#include <math.h>
#define D 128
#define MAX_SEQ 8192
void attn_ifguard(int B, int H, int N, float scale,
                 const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
                 const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_ifguard) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float s[N];
                float m = -INFINITY;
                for (int j = 0; j < N; j++) {
                    float x = 0.0f;
                    for (int d = 0; d < D; d++)
                        x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    s[j] = x * scale;
                    if (j <= i) m = fmaxf(m, s[j]);
                }
                float l = 0.0f;
                for (int j = 0; j < N; j++)
                    if (j <= i) l += expf(s[j] - m);
                for (int d = 0; d < D; d++) {
                    float a = 0.0f;
                    for (int j = 0; j < N; j++)
                        if (j <= i) a += expf(s[j] - m) * (float)v[b][h][j][d];
                    o[b][h][i][d] = (_Float16)(a / l);
                }
            }
}
