/* pf_file_scope_static_consts_causal_fp16.c: causal attention whose constants live at file
 * scope, as C code keeps them: `static const int HEAD_DIM = 64;` as the head dim (array
 * extents and loop bounds), `static const float NEG = -1e9f;` for the mask, `static const double
 * LOG2E` for an exp2f softmax. Style: fp16 storage, ternary causal mask, two passes,
 * rolling(j). */
#include <math.h>
static const int HEAD_DIM = 64;
static const float NEG = -1e9f;
static const double LOG2E = 1.4426950408889634;
void attn(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(attn) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float m = -INFINITY, l = 0.0f, acc[HEAD_DIM];
                for (int d = 0; d < HEAD_DIM; d++) acc[d] = 0.0f;
                for (int j = 0; j < N; j++) {
                    float s = 0.0f;
                    for (int d = 0; d < HEAD_DIM; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    s = j > i ? NEG : s * 0.125f;
                    m = fmaxf(m, s);
                }
                for (int j = 0; j < N; j++) {
                    float s = 0.0f;
                    for (int d = 0; d < HEAD_DIM; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    s = j > i ? NEG : s * 0.125f;
                    float p = exp2f((float)LOG2E * (s - m));
                    l += p;
                    for (int d = 0; d < HEAD_DIM; d++) acc[d] += p * (float)v[b][h][j][d];
                }
                for (int d = 0; d < HEAD_DIM; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
            }
}
