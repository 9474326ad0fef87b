/* dc_out_accumulate_bf16.c: decode attention (one query per head) with bf16 q and KV
 * cache and an fp32 output that the loop uses as its accumulator: zeroed, P.V added into
 * it, then scaled by 1 / l in place (the fp32 output a split-k decode kernel's caller
 * often wants before its own cast).
 * Style: #define HD 128, scores in s[L], max and sum in their own loops, P.V j-outer
 * into o[b][h][d], `const float inv = 1.0f / l; o[b][h][d] *= inv;` after; splitk(j).
 * Written for the output-as-accumulator work. */
#include <math.h>
#include "fusecc.h"
#define HD 128
void decode_oacc(int B, int H, int L, float scale, const fusecc_bf16 q[B][H][HD],
                 const fusecc_bf16 k[B][H][L][HD], const fusecc_bf16 v[B][H][L][HD], float o[B][H][HD])
{
#pragma fuse kernel(decode_oacc) parallel(b, h) splitk(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            float s[L];
            for (int j = 0; j < L; j++) {
                float dot = 0.0f;
                for (int d = 0; d < HD; d++)
                    dot += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
                s[j] = dot * scale;
            }
            float m = -INFINITY;
            for (int j = 0; j < L; j++)
                m = fmaxf(m, s[j]);
            for (int d = 0; d < HD; d++)
                o[b][h][d] = 0.0f;
            float l = 0.0f;
            for (int j = 0; j < L; j++) {
                const float p = expf(s[j] - m);
                l += p;
                for (int d = 0; d < HD; d++)
                    o[b][h][d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
            }
            const float inv = 1.0f / l;
            for (int d = 0; d < HD; d++)
                o[b][h][d] *= inv;
        }
}
