/* ix12_flashinfer_decode_flat_decl_ptrs_i32_lens_splitk_bf16.c: single-token decode
 * against a padded KV cache, GQA, bf16, head dim 128, split-k over the keys, each
 * sequence's length from an int32 array (FlashInfer's batch decode reference).
 * Style: every tensor declared flat with its size (`const fusecc_bf16 k[B * KH * L *
 * 128]`) and reached through pointer locals, `const fusecc_bf16 *kr = k + (((size_t)b * KH
 * + h / (H / KH)) * L + j) * 128;`; scores kept in s[L]. */
#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include "fusecc.h"
void batch_decode(int B, int H, int KH, int L, float sm_scale, const fusecc_bf16 q[B * H * 128],
                  const fusecc_bf16 k[B * KH * L * 128], const fusecc_bf16 v[B * KH * L * 128],
                  const int32_t kv_len[B], fusecc_bf16 o[B * H * 128])
{
#pragma fuse kernel(batch_decode) parallel(b, h) splitk(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const fusecc_bf16 *qr = q + ((size_t)b * H + h) * 128;
            float s[L];
            float m = -INFINITY;
            for (int j = 0; j < kv_len[b]; j++) {
                const fusecc_bf16 *kr = k + (((size_t)b * KH + h / (H / KH)) * L + j) * 128;
                float dot = 0.0f;
                for (int d = 0; d < 128; d++)
                    dot += fusecc_bf16_to_float(qr[d]) * fusecc_bf16_to_float(kr[d]);
                s[j] = dot * sm_scale;
                m = fmaxf(m, s[j]);
            }
            float den = 0.0f;
            for (int j = 0; j < kv_len[b]; j++) {
                s[j] = expf(s[j] - m);
                den += s[j];
            }
            fusecc_bf16 *orow = o + ((size_t)b * H + h) * 128;
            for (int d = 0; d < 128; d++) {
                float acc = 0.0f;
                for (int j = 0; j < kv_len[b]; j++) {
                    const fusecc_bf16 *vr = v + (((size_t)b * KH + h / (H / KH)) * L + j) * 128;
                    acc += s[j] * fusecc_bf16_to_float(vr[d]);
                }
                orow[d] = fusecc_float_to_bf16(acc / den);
            }
        }
}
