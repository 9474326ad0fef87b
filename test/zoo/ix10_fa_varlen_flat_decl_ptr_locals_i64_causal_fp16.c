/* ix10_fa_varlen_flat_decl_ptr_locals_i64_causal_fp16.c: FlashAttention varlen forward
 * as its CPU reference writes it: packed tokens, int64 cu_seqlens, causal inside each
 * sequence, fp16, head dim 128, online softmax by hand.
 * Style: q, k, v and o declared flat with their total size (`const _Float16 q[total *
 * H * 128]`) and read through pointer locals at a token's head, `const _Float16 *qi = q +
 * ((size_t)i * H + h) * 128;`, absolute token iterators in int64_t. */
#include <math.h>
#include <stdint.h>
#include <stddef.h>
void varlen_attn(int batch, int total, int H, float scale, const int64_t cu_seqlens[batch + 1],
                 const _Float16 q[total * H * 128], const _Float16 k[total * H * 128],
                 const _Float16 v[total * H * 128], _Float16 o[total * H * 128])
{
#pragma fuse kernel(varlen_attn) parallel(b, h, i) rolling(j)
    for (int b = 0; b < batch; b++)
        for (int h = 0; h < H; h++)
            for (int64_t i = cu_seqlens[b]; i < cu_seqlens[b + 1]; i++) {
                const _Float16 *qi = q + ((size_t)i * H + h) * 128;
                float mx = -INFINITY, den = 0.0f;
                float acc[128];
                for (int d = 0; d < 128; d++) acc[d] = 0.0f;
                for (int64_t j = cu_seqlens[b]; j <= i; j++) {
                    const _Float16 *kj = k + ((size_t)j * H + h) * 128;
                    const _Float16 *vj = v + ((size_t)j * H + h) * 128;
                    float s = 0.0f;
                    for (int d = 0; d < 128; d++) s += (float)qi[d] * (float)kj[d];
                    s *= scale;
                    float mn = fmaxf(mx, s);
                    float a = expf(mx - mn), p = expf(s - mn);
                    den = den * a + p;
                    for (int d = 0; d < 128; d++) acc[d] = acc[d] * a + p * (float)vj[d];
                    mx = mn;
                }
                _Float16 *oi = o + ((size_t)i * H + h) * 128;
                for (int d = 0; d < 128; d++) oi[d] = (_Float16)(acc[d] / den);
            }
}
