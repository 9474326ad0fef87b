/* dc_flashinfer_indptr_full_pages_rolling_bf16.c: batch decode over a paged KV cache
 * in FlashInfer's CSR layout (kv_indptr[b]..kv_indptr[b + 1] index kv_indices, the pages
 * of request b, all full), bf16, MHA, head dim 64, page size 16, int32, rolling.
 * Style: the page loop counts the request's pages, `p < kv_indptr[b + 1] - kv_indptr[b]`,
 * the page id `kv_indices[kv_indptr[b] + p]` in a local, the slot loop inside; scores
 * stored at `p * PAGE + e`, then max, sum and P.V loops over `kv_len = (kv_indptr[b +
 * 1] - kv_indptr[b]) * PAGE`. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
#define PAGE 16
#define HD 64
void batch_decode_paged(int batch, int H, int max_pages, int npool, float sm_scale, const fusecc_bf16 q[batch][H][HD],
                        const fusecc_bf16 k_pool[npool][PAGE][H][HD], const fusecc_bf16 v_pool[npool][PAGE][H][HD],
                        const int32_t kv_indptr[batch + 1], const int32_t kv_indices[batch * max_pages],
                        fusecc_bf16 o[batch][H][HD])
{
#pragma fuse kernel(batch_decode_paged) parallel(b, h) rolling(j)
    for (int b = 0; b < batch; b++)
        for (int h = 0; h < H; h++) {
            float s[max_pages * PAGE];
            for (int p = 0; p < kv_indptr[b + 1] - kv_indptr[b]; p++) {
                const int page = kv_indices[kv_indptr[b] + p];
                for (int e = 0; e < PAGE; e++) {
                    float acc = 0.0f;
                    for (int d = 0; d < HD; d++)
                        acc += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k_pool[page][e][h][d]);
                    s[p * PAGE + e] = acc * sm_scale;
                }
            }
            const int kv_len = (kv_indptr[b + 1] - kv_indptr[b]) * PAGE;
            float m = -INFINITY;
            for (int j = 0; j < kv_len; j++)
                m = fmaxf(m, s[j]);
            float d_sum = 0.0f;
            for (int j = 0; j < kv_len; j++)
                d_sum += expf(s[j] - m);
            for (int d = 0; d < HD; d++) {
                float acc = 0.0f;
                for (int j = 0; j < kv_len; j++)
                    acc += expf(s[j] - m) * fusecc_bf16_to_float(v_pool[kv_indices[kv_indptr[b] + j / PAGE]][j % PAGE][h][d]);
                o[b][h][d] = fusecc_float_to_bf16(acc / d_sum);
            }
        }
}
