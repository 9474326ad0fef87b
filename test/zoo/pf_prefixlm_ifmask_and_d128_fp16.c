/* pf_prefixlm_ifmask_and_d128_fp16.c: prefix-LM (PaliGemma / T5-prefix style): tokens of
 * the prefix (j < prefix_len[b]) are visible to every query, the rest causally. Style: nest b/h/i, #define HEAD 128, fp16,
 * mask as an `if` that sets -INFINITY, three passes recomputing the dot each time,
 * d-inner P.V into acc[], scale computed in set-up. The mask is two conjuncts: the key
 * range is the hull max(i + 1, prefix_len[b]), the rest is tested per element. */
#include <math.h>
#include <stdint.h>

#define HEAD 128

void prefix_lm_attn(int B, int H, int S,
                    const _Float16 q[B][H][S][HEAD], const _Float16 k[B][H][S][HEAD],
                    const _Float16 v[B][H][S][HEAD], const int32_t prefix_len[B],
                    _Float16 o[B][H][S][HEAD])
{
    const float scale = 1.0f / sqrtf((float)HEAD);
#pragma fuse kernel(prefix_lm_attn) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < S; i++) {
                float row_max = -INFINITY;
                for (int j = 0; j < S; j++) {
                    float sc = 0.0f;
                    for (int d = 0; d < HEAD; d++)
                        sc += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    sc *= scale;
                    if (j > i && j >= prefix_len[b])
                        sc = -INFINITY;
                    row_max = fmaxf(row_max, sc);
                }
                float row_sum = 0.0f;
                float acc[HEAD];
                for (int d = 0; d < HEAD; d++) acc[d] = 0.0f;
                for (int j = 0; j < S; j++) {
                    float sc = 0.0f;
                    for (int d = 0; d < HEAD; d++)
                        sc += (float)q[b][h][i][d] * (float)k[b][h][j][d];
                    sc *= scale;
                    if (j > i && j >= prefix_len[b])
                        sc = -INFINITY;
                    float p = expf(sc - row_max);
                    row_sum += p;
                    for (int d = 0; d < HEAD; d++)
                        acc[d] += p * (float)v[b][h][j][d];
                }
                for (int d = 0; d < HEAD; d++)
                    o[b][h][i][d] = (_Float16)(acc[d] / row_sum);
            }
}
