/* pf_helper_dot128_rowargs_fp16.c: a static inline dot-product helper with a loop, called for q.k with rows of q and k as its array arguments (inlined before the statement), fp16, #define D 128. */
#include <math.h>
#define D 128
static inline float dot128(const _Float16 a[D], const _Float16 b[D])
{
    float x = 0.0f;
    for (int d = 0; d < D; d++) x += (float)a[d] * (float)b[d];
    return x;
}
void attn_helper(int B, int H, int N, float scale,
                 const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
                 const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_helper) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float s[N];
                float m = -INFINITY;
                for (int j = 0; j < N; j++) {
                    s[j] = dot128(q[b][h][i], k[b][h][j]) * scale;
                    m = fmaxf(m, s[j]);
                }
                float l = 0.0f;
                for (int j = 0; j < N; j++) l += expf(s[j] - m);
                for (int d = 0; d < D; d++) {
                    float a = 0.0f;
                    for (int j = 0; j < N; j++) a += expf(s[j] - m) * (float)v[b][h][j][d];
                    o[b][h][i][d] = (_Float16)(a / l);
                }
            }
}
