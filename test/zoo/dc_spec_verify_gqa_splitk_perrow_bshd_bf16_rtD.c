/* dc_spec_verify_gqa_splitk_perrow_bshd_bf16_rtD.c: speculative-decoding verify: T draft
 * tokens per sequence are scored in one step against a KV cache that already holds
 * past[b] tokens followed by the T drafts; draft t sees cache positions j <= past[b] + t
 * (`n_ctx` local). GQA (HQ query heads over HKV cache heads), tokens-major layouts as
 * vLLM/HF keep them ([B][T][HQ][D], cache [B][L][HKV][D]). bf16, run-time D, nest b/t/h,
 * kv head by division, branchy one-pass online softmax, splitk over the cache. The
 * chunks split the range of the last draft; each draft masks its own end. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void spec_verify_gqa(int B, int T, int HQ, int HKV, int L, int D, float scale,
                     const fusecc_bf16 q[B][T][HQ][D], const fusecc_bf16 kc[B][L][HKV][D],
                     const fusecc_bf16 vc[B][L][HKV][D], const int32_t past[B],
                     fusecc_bf16 o[B][T][HQ][D])
{
    const int rep = HQ / HKV;
#pragma fuse kernel(spec_verify_gqa) parallel(b, t, h) splitk(j)
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int h = 0; h < HQ; h++) {
                const int kvh = h / rep;
                const int n_ctx = past[b] + t + 1;
                float m = -INFINITY, l = 0.0f;
                float acc[D];
                for (int d = 0; d < D; d++) acc[d] = 0.0f;
                for (int j = 0; j < n_ctx; j++) {
                    float s = 0.0f;
                    for (int d = 0; d < D; d++)
                        s += fusecc_bf16_to_float(q[b][t][h][d]) * fusecc_bf16_to_float(kc[b][j][kvh][d]);
                    s *= scale;
                    if (s > m) {
                        float corr = expf(m - s);
                        l *= corr;
                        for (int d = 0; d < D; d++) acc[d] *= corr;
                        m = s;
                    }
                    float p = expf(s - m);
                    l += p;
                    for (int d = 0; d < D; d++)
                        acc[d] += p * fusecc_bf16_to_float(vc[b][j][kvh][d]);
                }
                for (int d = 0; d < D; d++)
                    o[b][t][h][d] = fusecc_float_to_bf16(acc[d] / l);
            }
}
