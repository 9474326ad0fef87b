/* ix06_sglang_extend_req_slot_chain_bf16.c: SGLang "extend" (prefill on top of a cached
 * prefix), bf16, head dim 128, causal over the prefix plus the new tokens, rolling.
 * Style: the new tokens of request b are packed at rows extend_start_loc[b] ..
 * extend_start_loc[b + 1] - 1; keys are read from the token pool through a chain of
 * named int locals, `const int req = req_pool_indices[b];` in the row, then `const int
 * slot = req_to_token[req][j];` in each key loop; query i sees keys j <= prefix_len[b] + i. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

#define HD 128

void sgl_extend(int bs, int T, int H, int pool, int max_reqs, int max_ctx, float scale,
                const fusecc_bf16 q[T][H][HD],
                const fusecc_bf16 k_buf[pool][H][HD], const fusecc_bf16 v_buf[pool][H][HD],
                const int32_t req_to_token[max_reqs][max_ctx], const int32_t req_pool_indices[bs],
                const int32_t prefix_len[bs], const int32_t extend_start_loc[bs + 1],
                const int32_t extend_seq_len[bs], fusecc_bf16 o[T][H][HD])
{
#pragma fuse kernel(sgl_extend) parallel(b, h, i) rolling(j)
    for (int b = 0; b < bs; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < extend_start_loc[b + 1] - extend_start_loc[b]; i++) {
                const int row = extend_start_loc[b] + i;
                const int req = req_pool_indices[b];
                const int last = prefix_len[b] + i;
                float mx = -INFINITY;
                for (int j = 0; j <= last; j++) {
                    const int slot = req_to_token[req][j];
                    float dot = 0.0f;
                    for (int d = 0; d < HD; d++)
                        dot += fusecc_bf16_to_float(q[row][h][d]) * fusecc_bf16_to_float(k_buf[slot][h][d]);
                    mx = fmaxf(mx, dot * scale);
                }
                float l = 0.0f, acc[HD];
                for (int d = 0; d < HD; d++) acc[d] = 0.0f;
                for (int j = 0; j <= last; j++) {
                    const int slot = req_to_token[req][j];
                    float dot = 0.0f;
                    for (int d = 0; d < HD; d++)
                        dot += fusecc_bf16_to_float(q[row][h][d]) * fusecc_bf16_to_float(k_buf[slot][h][d]);
                    const float p = expf(dot * scale - mx);
                    l += p;
                    for (int d = 0; d < HD; d++)
                        acc[d] += p * fusecc_bf16_to_float(v_buf[slot][h][d]);
                }
                for (int d = 0; d < HD; d++)
                    o[row][h][d] = fusecc_float_to_bf16(acc[d] / l);
            }
}
