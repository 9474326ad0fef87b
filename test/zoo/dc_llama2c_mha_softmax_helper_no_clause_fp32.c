/* dc_llama2c_mha_softmax_helper_no_clause_fp32.c: llama2.c's multi-head attention for one
 * position as an HPC programmer ports it: head_size = dim / n_heads, kv_mul for GQA, a
 * scratch row att[seq_len], the softmax(att, pos + 1) helper with its own loops over i,
 * and only parallel(h) in the pragma (no strategy: fusecc picks the loop over t). fp32. */
#include <math.h>

static void softmax(float *x, int size)
{
    float max_val = x[0];
    for (int i = 1; i < size; i++)
        if (x[i] > max_val) max_val = x[i];
    float sum = 0.0f;
    for (int i = 0; i < size; i++) {
        x[i] = expf(x[i] - max_val);
        sum += x[i];
    }
    for (int i = 0; i < size; i++)
        x[i] /= sum;
}

void llama2_attention(int dim, int n_heads, int n_kv_heads, int seq_len, int pos,
                      const float *q, const float *key_cache, const float *value_cache,
                      float *xb)
{
    int head_size = dim / n_heads;
    int kv_dim = (dim * n_kv_heads) / n_heads;
    int kv_mul = n_heads / n_kv_heads;
#pragma fuse kernel(llama2_mha) parallel(h)
    for (int h = 0; h < n_heads; h++) {
        const float *qh = q + h * head_size;
        float att[seq_len];
        for (int t = 0; t <= pos; t++) {
            const float *kt = key_cache + t * kv_dim + (h / kv_mul) * head_size;
            float score = 0.0f;
            for (int i = 0; i < head_size; i++)
                score += qh[i] * kt[i];
            score /= sqrtf(head_size);
            att[t] = score;
        }
        softmax(att, pos + 1);
        float *xbh = xb + h * head_size;
        for (int i = 0; i < head_size; i++) xbh[i] = 0.0f;
        for (int t = 0; t <= pos; t++) {
            const float *vt = value_cache + t * kv_dim + (h / kv_mul) * head_size;
            float a = att[t];
            for (int i = 0; i < head_size; i++)
                xbh[i] += a * vt[i];
        }
    }
}
