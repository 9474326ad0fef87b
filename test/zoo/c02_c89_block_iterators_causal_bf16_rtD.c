/* c02_c89_block_iterators_causal_bf16_rtD.c: causal prefill where each block declares the
 * iterators and scratch it needs at its top, C89-style: the batch and head iterators at the
 * top of the function, `int j, d;` and the row's scalars (no initial values) at the top of
 * the row's block, j and d reused by every pass.
 * Style: bf16 storage with fusecc_bf16_to_float, run-time head dim D, scale computed before
 * the region, mask as the bound j <= i, the probability kept in a local p, j-outer P.V into
 * acc[D]. rolling(j), parallel(b, h, i). */
#include <math.h>
#include "fusecc.h"

void causal89(int B, int H, int N, int D,
              const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
              const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
    int b, h, i;
    const float scale = 1.0f / sqrtf((float)D);

#pragma fuse kernel(causal89) parallel(b, h, i) rolling(j)
    for (b = 0; b < B; b++) {
        for (h = 0; h < H; h++) {
            for (i = 0; i < N; i++) {
                int j, d;
                float m, l, dot, p;
                float s[N];
                float acc[D];

                m = -INFINITY;
                for (j = 0; j <= i; j++) {
                    dot = 0.0f;
                    for (d = 0; d < D; d++)
                        dot += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
                    s[j] = dot * scale;
                    if (s[j] > m)
                        m = s[j];
                }
                l = 0.0f;
                for (d = 0; d < D; d++)
                    acc[d] = 0.0f;
                for (j = 0; j <= i; j++) {
                    p = expf(s[j] - m);
                    l += p;
                    for (d = 0; d < D; d++)
                        acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
                }
                for (d = 0; d < D; d++)
                    o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
            }
        }
    }
}
