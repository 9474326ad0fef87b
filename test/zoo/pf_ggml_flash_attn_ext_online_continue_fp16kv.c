/* pf_ggml_flash_attn_ext_online_continue_fp16kv.c: llama.cpp's CPU flash attention
 * (ggml_compute_forward_flash_attn_ext_f16_one_chunk) as plain C, as ggml writes it:
 * fp32 Q row, fp16 K/V (ggml's F16 KV cache), GQA by ik2 = iq2 / rk2, an fp16 KQ mask row
 * per query skipped by `if (mv == -INFINITY) continue;`, an online softmax with M, S and
 * the VKQ32 accumulator updated through ms / vs set in the two branches of `if (s > M)`
 * (ggml's Mold/ms/vs form), logit softcap when non zero, S_inv guarded.
 * Style: C engine port, flat pointers, #define head dims, rolling(ic), parallel(iq3, iq2,
 * iq1). Layouts: q[ne3][neq2][neq1][D], k/v[ne3][nek2][nek1][D], mask[neq1][nek1],
 * dst[ne3][neq1][neq2][D] (heads innermost, as ggml permutes it). */
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

                    const float Mold = M;

                    float ms = 1.0f; // upon new higher max val, scale VKQ and KQ sum with this value
                    float vs = 1.0f; // post-softmax KQ value, expf(s - M)

                    if (s > M) {
                        // s is new maximum, ms < 1.0f, vs == expf(s - s) == 1.0f
                        M = s;
                        ms = expf(Mold - M);

                        // V = V*expf(Mold - M)
                        for (int d = 0; d < DV; d++) VKQ32[d] *= ms;
                    } else {
                        // no new maximum, ms == 1.0f, vs != 1.0f
                        vs = expf(s - M);
                    }

                    // V += v*expf(s - M)
                    for (int d = 0; d < DV; d++) {
                        VKQ32[d] += (float)v[((iq3 * nek2 + iv2) * nek1 + ic) * DV + d] * vs;
                    }

                    S = S * ms + vs; // scale and increment sum with partial sum
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
