/* c05_causal_break_bf16.c: causal prefill whose key loops stop at the diagonal with
 * `if (j > i) break;` (the loops are written over all N keys, as in the unmasked code
 * they were copied from).
 * Style: bf16 storage with fusecc_bf16_to_float, #define D 128, scale computed before the
 * region, max as a branch, j-outer P.V into acc[D]. rolling(j), parallel(b, h, i). */
#include <math.h>
#include "fusecc.h"

#define D 128

void attn_break(int B, int H, int N,
                const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
                const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
    const float scale = 0.08838834764831845f;

#pragma fuse kernel(attn_break) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float s[N];
                float m = -INFINITY;
                for (int j = 0; j < N; j++) {
                    if (j > i)
                        break;
                    float x = 0.0f;
                    for (int d = 0; d < D; d++)
                        x += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
                    s[j] = x * scale;
                    if (s[j] > m)
                        m = s[j];
                }
                float l = 0.0f;
                float acc[D] = {0};
                for (int j = 0; j < N; j++) {
                    if (j > i)
                        break;
                    float p = expf(s[j] - m);
                    l += p;
                    for (int d = 0; d < D; d++)
                        acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
                }
                for (int d = 0; d < D; d++)
                    o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
            }
}
