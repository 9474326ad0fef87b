/* dc_nostrategy_d128_bf16.c: decode attention in bf16 with no strategy clause at all (only
 * kernel and parallel): fusecc decides.
 * Style: `#define D 128`, no score buffer: a max pass, then one pass doing the sum and a
 * j-outer P.V into acc[D] (two passes, q.k recomputed), helper locals qk and e,
 * x = x + e. Allman braces, 4 spaces, names query/key/value/out. */
#include <math.h>
#include "fusecc.h"

#define D 128

void decode_bf16(int B, int H, int L, float scale,
                 const fusecc_bf16 query[B][H][D], const fusecc_bf16 key[B][H][L][D],
                 const fusecc_bf16 value[B][H][L][D], fusecc_bf16 out[B][H][D])
{
#pragma fuse kernel(decode_bf16) parallel(b, h)
    for (int b = 0; b < B; b++)
    {
        for (int h = 0; h < H; h++)
        {
            float m = -INFINITY;
            for (int j = 0; j < L; j++)
            {
                float qk = 0.0f;
                for (int d = 0; d < D; d++)
                    qk = qk + fusecc_bf16_to_float(query[b][h][d]) * fusecc_bf16_to_float(key[b][h][j][d]);
                m = fmaxf(m, qk * scale);
            }
            float l = 0.0f;
            float acc[D];
            for (int d = 0; d < D; d++)
                acc[d] = 0.0f;
            for (int j = 0; j < L; j++)
            {
                float qk = 0.0f;
                for (int d = 0; d < D; d++)
                    qk = qk + fusecc_bf16_to_float(query[b][h][d]) * fusecc_bf16_to_float(key[b][h][j][d]);
                float e = expf(qk * scale - m);
                l = l + e;
                for (int d = 0; d < D; d++)
                    acc[d] = acc[d] + e * fusecc_bf16_to_float(value[b][h][j][d]);
            }
            for (int d = 0; d < D; d++)
                out[b][h][d] = fusecc_float_to_bf16(acc[d] / l);
        }
    }
}
