/* pf_bert_hidden_layout_head_columns_ext_mask_fp32: BERT self-attention on the hidden-state layout: q/k/v are [B][N][hidden] with head h
 * at columns h*64 .. h*64+63 (no transpose_for_scores), extended attention mask
 * (1 - mask) * -10000 from an int64 attention_mask[B][N]. fp32. Style: HF BertSelfAttention. */
#include <math.h>
#include <stdint.h>
void bert_attn(int B, int N, int NH, const float q[B][N][NH * 64], const float k[B][N][NH * 64],
               const float v[B][N][NH * 64], const int64_t attention_mask[B][N], float ctx[B][N][NH * 64])
{
    const float inv = 0.125f;
#pragma fuse kernel(bert_attn) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < NH; h++)
            for (int i = 0; i < N; i++) {
                float sc[N];
                float mx = -INFINITY;
                for (int j = 0; j < N; j++) {
                    float dot = 0.0f;
                    for (int d = 0; d < 64; d++) dot += q[b][i][h * 64 + d] * k[b][j][h * 64 + d];
                    sc[j] = dot * inv + (1.0f - (float)attention_mask[b][j]) * -10000.0f;
                    if (sc[j] > mx) mx = sc[j];
                }
                float sum = 0.0f;
                for (int j = 0; j < N; j++) { sc[j] = expf(sc[j] - mx); sum += sc[j]; }
                for (int d = 0; d < 64; d++) {
                    float a = 0.0f;
                    for (int j = 0; j < N; j++) a += sc[j] * v[b][j][h * 64 + d];
                    ctx[b][i][h * 64 + d] = a / sum;
                }
            }
}
