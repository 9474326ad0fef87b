/* DeepSeek-V2/V3 MLA prefill as the reference code writes it: q and k in two parts, a
 * no-position part (128) and a RoPE part (64), so the 192-wide q.k is two loops into two
 * scalars summed; k_pe is shared by all heads ([B][N][64]); V is 128 wide. Causal,
 * #define dims, bf16, nest b/h/i, softmax_scale a float parameter (YaRN mscale folded in). */
#include <math.h>
#include "fusecc.h"

#define NOPE 128
#define ROPE 64
#define VD 128

void mla_prefill_split(int B, int H, int N, float softmax_scale,
                       const fusecc_bf16 q_nope[B][H][N][NOPE], const fusecc_bf16 q_pe[B][H][N][ROPE],
                       const fusecc_bf16 k_nope[B][H][N][NOPE], const fusecc_bf16 k_pe[B][N][ROPE],
                       const fusecc_bf16 v[B][H][N][VD], fusecc_bf16 o[B][H][N][VD])
{
#pragma fuse kernel(mla_prefill_split) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                float sc[N];
                float m = -INFINITY;
                for (int j = 0; j <= i; j++) {
                    float a = 0.0f, r = 0.0f;
                    for (int d = 0; d < NOPE; d++)
                        a += fusecc_bf16_to_float(q_nope[b][h][i][d]) * fusecc_bf16_to_float(k_nope[b][h][j][d]);
                    for (int d = 0; d < ROPE; d++)
                        r += fusecc_bf16_to_float(q_pe[b][h][i][d]) * fusecc_bf16_to_float(k_pe[b][j][d]);
                    sc[j] = (a + r) * softmax_scale;
                    m = fmaxf(m, sc[j]);
                }
                float l = 0.0f;
                for (int j = 0; j <= i; j++) {
                    sc[j] = expf(sc[j] - m);
                    l += sc[j];
                }
                float acc[VD];
                for (int d = 0; d < VD; d++) acc[d] = 0.0f;
                for (int j = 0; j <= i; j++)
                    for (int d = 0; d < VD; d++)
                        acc[d] += sc[j] * fusecc_bf16_to_float(v[b][h][j][d]);
                for (int d = 0; d < VD; d++)
                    o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
            }
}
