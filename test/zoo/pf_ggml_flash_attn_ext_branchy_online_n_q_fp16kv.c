/* pf_ggml_flash_attn_ext_branchy_online_n_q_fp16kv: ggml_compute_forward_flash_attn_ext_f16 (CPU): the branchy online softmax with M, S,
 * ms, vs: `if (s > M) { M = s; ms = expf(Mold - M); VKQ *= ms; } else vs = expf(s - M);`
 * VKQ += vs * V; S = S * ms + vs. fp16 K/V, fp32 q, D128, mask as an fp16 additive array.
 * Style: llama.cpp ggml-cpu port, written out per element. */
#include <math.h>
void fa_ext(int n_head, int n_q, int n_kv, float scale, const float q[n_head][n_q][128],
            const _Float16 k[n_head][n_kv][128], const _Float16 v[n_head][n_kv][128],
            const _Float16 mask[n_q][n_kv], float dst[n_q][n_head][128])
{
#pragma fuse kernel(fa_ext) parallel(iq2, iq1) rolling(ic)
    for (int iq2 = 0; iq2 < n_head; iq2++)
    for (int iq1 = 0; iq1 < n_q; iq1++) {
        float S = 0.0f;
        float M = -INFINITY;
        float VKQ32[128];
        for (int d = 0; d < 128; d++) VKQ32[d] = 0.0f;
        for (int ic = 0; ic < n_kv; ic++) {
            const float mv = (float)mask[iq1][ic];
            if (mv == -INFINITY) continue;
            float s = 0.0f;
            for (int d = 0; d < 128; d++) s += q[iq2][iq1][d] * (float)k[iq2][ic][d];
            s = s * scale + mv;
            const float Mold = M;
            float ms = 1.0f;
            float vs = 1.0f;
            if (s > M) {
                M = s;
                ms = expf(Mold - M);
                for (int d = 0; d < 128; d++) VKQ32[d] *= ms;
            } else {
                vs = expf(s - M);
            }
            for (int d = 0; d < 128; d++) VKQ32[d] += vs * (float)v[iq2][ic][d];
            S = S * ms + vs;
        }
        const float S_inv = S == 0.0f ? 0.0f : 1.0f / S;
        for (int d = 0; d < 128; d++) dst[iq1][iq2][d] = VKQ32[d] * S_inv;
    }
}
