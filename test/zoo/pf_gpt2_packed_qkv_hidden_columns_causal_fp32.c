/* pf_gpt2_packed_qkv_hidden_columns_causal_fp32: GPT-2's c_attn output kept as an array
 * [B][T][3 * NH * 64] (no split, no transpose): q at columns h * 64 + d, k at NH * 64 + h *
 * 64 + d, v after them; causal as the key loop's bound; fp32. */
#include <math.h>
void gpt2(int B, int T, int NH, const float qkv[B][T][3 * NH * 64], float out[B][T][NH * 64])
{
#pragma fuse kernel(gpt2) parallel(b, t, h) rolling(u)
    for (int b = 0; b < B; b++) for (int t = 0; t < T; t++) for (int h = 0; h < NH; h++) {
        float m = -INFINITY, l = 0, acc[64];
        for (int d = 0; d < 64; d++) acc[d] = 0;
        for (int u = 0; u <= t; u++) {
            float s = 0;
            for (int d = 0; d < 64; d++) s += qkv[b][t][h * 64 + d] * qkv[b][u][NH * 64 + h * 64 + d];
            s *= 0.125f;
            float mn = fmaxf(m, s), a = expf(m - mn), p = expf(s - mn);
            l = l * a + p;
            for (int d = 0; d < 64; d++) acc[d] = acc[d] * a + p * qkv[b][u][2 * NH * 64 + h * 64 + d];
            m = mn;
        }
        for (int d = 0; d < 64; d++) out[b][t][h * 64 + d] = acc[d] / l;
    }
}
