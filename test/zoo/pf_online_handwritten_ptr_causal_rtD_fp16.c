/* pf_online_handwritten_ptr_causal_rtD_fp16.c: causal prefill written by someone who knows
 * FlashAttention: the online softmax by hand (m_new = fmaxf(m_i, s), alpha = expf(m_i - m_new),
 * l_i = l_i * alpha + p, acc[d] = acc[d] * alpha + p * v), pointers with row locals, run-time D,
 * sm_scale parameter multiplied into the score. 4-space indent.
 * rolling(j), parallel(b, h, i). */
#include <math.h>

void fa_fwd(int B, int H, int N, int D, float sm_scale,
            const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *o)
{
#pragma fuse kernel(fa_fwd) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++)
            for (int i = 0; i < N; i++) {
                const _Float16 *qi = q + ((b * H + h) * N + i) * D;
                float m_i = -INFINITY;
                float l_i = 0.0f;
                float acc[D];
                for (int d = 0; d < D; d++) acc[d] = 0.0f;
                for (int j = 0; j <= i; j++) {
                    const _Float16 *kj = k + ((b * H + h) * N + j) * D;
                    const _Float16 *vj = v + ((b * H + h) * N + j) * D;
                    float s = 0.0f;
                    for (int d = 0; d < D; d++) s += (float)qi[d] * (float)kj[d];
                    s *= sm_scale;
                    float m_new = fmaxf(m_i, s);
                    float alpha = expf(m_i - m_new);
                    float p = expf(s - m_new);
                    l_i = l_i * alpha + p;
                    for (int d = 0; d < D; d++) acc[d] = acc[d] * alpha + p * (float)vj[d];
                    m_i = m_new;
                }
                _Float16 *oi = o + ((b * H + h) * N + i) * D;
                for (int d = 0; d < D; d++) oi[d] = (_Float16)(acc[d] / l_i);
            }
}
