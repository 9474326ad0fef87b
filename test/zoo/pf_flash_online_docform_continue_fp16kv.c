/* pf_flash_online_docform_continue_fp16kv.c: ggml's CPU flash attention with the online
 * softmax in the documented form (`if (s > M) { ms = expf(M - s); V *= ms; S *= ms; M = s; }`
 * then `vs = expf(s - M); V += v*vs; S += vs;`) behind ggml's `if (mv == -INFINITY)
 * continue;` on an fp16 mask.
 * Style: C engine port, fp32 Q against an fp16 KV cache, flat pointers, GQA by iq2 / rk2,
 * logit softcap when non zero, rolling(ic), parallel(iq3, iq2, iq1). */
#include <math.h>

#define DK 128
#define DV 128

void flash_attn_ext_f16(const float* q, const _Float16* k, const _Float16* v, const _Float16* mask,
                        float* dst, int ne3, int neq2, int neq1, int nek2, int nek1,
                        float scale, float logit_softcap) {
    const int rk2 = neq2 / nek2;

#pragma fuse kernel(flash_attn_ext) parallel(iq3, iq2, iq1) rolling(ic)
    for (int iq3 = 0; iq3 < ne3; iq3++) {
        for (int iq2 = 0; iq2 < neq2; iq2++) {
            for (int iq1 = 0; iq1 < neq1; iq1++) {
                const int ik2 = iq2 / rk2;
                const int iv2 = iq2 / rk2;

                float S = 0.0f;      // sum
                float M = -INFINITY; // maximum KQ value

                float VKQ32[DV]; // FP32 VKQ accumulator
                for (int d = 0; d < DV; d++) VKQ32[d] = 0.0f;

                const float* pq = q + ((iq3 * neq2 + iq2) * neq1 + iq1) * DK;
                const _Float16* mp = mask + iq1 * nek1;

                // online softmax / attention
                for (int ic = 0; ic < nek1; ++ic) {
                    const float mv = (float)mp[ic];
                    if (mv == -INFINITY) {
                        continue;
                    }

                    float s = 0.0f;
                    for (int d = 0; d < DK; d++) {
                        s += pq[d] * (float)k[((iq3 * nek2 + ik2) * nek1 + ic) * DK + d];
                    }

                    s = s * scale; // scale KQ value

                    if (logit_softcap != 0.0f) {
                        s = logit_softcap * tanhf(s);
                    }

                    s += mv; // apply mask

                    if (s > M) {
                        const float ms = expf(M - s);
                        for (int d = 0; d < DV; d++) VKQ32[d] *= ms;
                        S *= ms;
                        M = s;
                    }
                    const float vs = expf(s - M);
                    for (int d = 0; d < DV; d++) {
                        VKQ32[d] += (float)v[((iq3 * nek2 + iv2) * nek1 + ic) * DV + d] * vs;
                    }
                    S += vs;
                }

                // V /= S
                const float S_inv = S == 0.0f ? 0.0f : 1.0f / S;
                for (int d = 0; d < DV; d++) {
                    dst[((iq3 * neq1 + iq1) * neq2 + iq2) * DV + d] = VKQ32[d] * S_inv;
                }
            }
        }
    }
}
