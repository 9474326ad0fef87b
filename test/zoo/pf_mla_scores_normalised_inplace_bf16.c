/* pf_mla_scores_normalised_inplace_bf16.c: DeepSeek-style MLA prefill after up-projection:
 * q.k over qk_head_dim (192), values of v_head_dim (128), both run-time ints; bf16 through
 * fusecc_bf16_to_float; causal as `if (t > s) acc = -INFINITY`; the scores row materialised,
 * exponentials written back into it, then normalised in place (`scores[t] /= denom`) before
 * P.V with c outer. [B, S, H, D] layout. rolling(t), parallel(b, s, h). */
#include <math.h>
#include "fusecc.h"

void mla_prefill(int bsz, int seqlen, int n_heads, int qk_head_dim, int v_head_dim,
                 float softmax_scale,
                 const fusecc_bf16 q[bsz][seqlen][n_heads][qk_head_dim],
                 const fusecc_bf16 k[bsz][seqlen][n_heads][qk_head_dim],
                 const fusecc_bf16 v[bsz][seqlen][n_heads][v_head_dim],
                 fusecc_bf16 out[bsz][seqlen][n_heads][v_head_dim])
{
#pragma fuse kernel(mla_prefill) parallel(b, s, h) rolling(t)
    for (int b = 0; b < bsz; b++)
        for (int s = 0; s < seqlen; s++)
            for (int h = 0; h < n_heads; h++) {
                float scores[seqlen];
                for (int t = 0; t < seqlen; t++) {
                    float acc = 0.0f;
                    for (int c = 0; c < qk_head_dim; c++)
                        acc += fusecc_bf16_to_float(q[b][s][h][c]) * fusecc_bf16_to_float(k[b][t][h][c]);
                    acc *= softmax_scale;
                    if (t > s) acc = -INFINITY;
                    scores[t] = acc;
                }
                float mx = -INFINITY;
                for (int t = 0; t < seqlen; t++)
                    mx = fmaxf(mx, scores[t]);
                float denom = 0.0f;
                for (int t = 0; t < seqlen; t++) {
                    scores[t] = expf(scores[t] - mx);
                    denom += scores[t];
                }
                for (int t = 0; t < seqlen; t++)
                    scores[t] /= denom;
                for (int c = 0; c < v_head_dim; c++) {
                    float acc = 0.0f;
                    for (int t = 0; t < seqlen; t++)
                        acc += scores[t] * fusecc_bf16_to_float(v[b][t][h][c]);
                    out[b][s][h][c] = fusecc_float_to_bf16(acc);
                }
            }
}
