/* ix13_varlen_ptrs_no_extent_i32_cu_twopass_fp16.c: varlen (packed) prefill, not causal,
 * fp16, head dim 64, int32 cu_seqlens, a max pass then a sum and P.V pass.
 * Style: every tensor a bare pointer (`const _Float16 *q`, as from .data_ptr()), row
 * pointers per token `q + ((int64_t)t * H + h) * 64`, absolute token loops from
 * cu_seqlens. Nothing bounds the packed rows on the host: the fused C runs; CUDA and HIP
 * are refused with the declaration to write (`const _Float16 q[TOTAL * H * 64]`, TOTAL a
 * new int parameter: the tiles count the row tiles from it; test/zoo/ix10 is that form). */
#include <math.h>
#include <stdint.h>
void varlen_prefill(int num_seqs, int H, float scale, const int32_t *cu_seqlens,
                    const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *o)
{
#pragma fuse kernel(varlen_prefill) parallel(s, h, t)
    for (int s = 0; s < num_seqs; s++)
        for (int h = 0; h < H; h++)
            for (int t = cu_seqlens[s]; t < cu_seqlens[s + 1]; t++) {
                const _Float16 *qt = q + ((int64_t)t * H + h) * 64;
                float mx = -INFINITY;
                for (int u = cu_seqlens[s]; u < cu_seqlens[s + 1]; u++) {
                    const _Float16 *ku = k + ((int64_t)u * H + h) * 64;
                    float dot = 0.0f;
                    for (int d = 0; d < 64; d++) dot += (float)qt[d] * (float)ku[d];
                    mx = fmaxf(mx, dot * scale);
                }
                float sum = 0.0f, acc[64] = {0};
                for (int u = cu_seqlens[s]; u < cu_seqlens[s + 1]; u++) {
                    const _Float16 *ku = k + ((int64_t)u * H + h) * 64;
                    const _Float16 *vu = v + ((int64_t)u * H + h) * 64;
                    float dot = 0.0f;
                    for (int d = 0; d < 64; d++) dot += (float)qt[d] * (float)ku[d];
                    float p = expf(dot * scale - mx);
                    sum += p;
                    for (int d = 0; d < 64; d++) acc[d] += p * (float)vu[d];
                }
                _Float16 *ot = o + ((int64_t)t * H + h) * 64;
                for (int d = 0; d < 64; d++) ot[d] = (_Float16)(acc[d] / sum);
            }
}
