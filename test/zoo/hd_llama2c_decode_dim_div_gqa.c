/* llama2.c forward(): the multihead attention of one layer at position pos with its sizes
 * as llama2.c computes them: `head_size = dim / n_heads`, `kv_dim = (dim * n_kv_heads) /
 * n_heads` and `kv_mul = n_heads / n_kv_heads` (GQA, keys read at `(h / kv_mul) *
 * head_size`), key/value cache of the layer flat [seq_len][kv_dim], att scratch per head,
 * llama2.c's softmax() pasted in (max seeded with x[0], exp stored back, then /= sum), xb
 * zeroed with a loop, then accumulated. */
#include <math.h>

void llama2_attention(float* xb, const float* q, const float* key_cache,
                      const float* value_cache, int dim, int n_heads, int n_kv_heads,
                      int seq_len, int pos) {
    int head_size = dim / n_heads;
    int kv_dim = (dim * n_kv_heads) / n_heads;
    int kv_mul = n_heads / n_kv_heads; // integer multiplier of the kv sharing in multiquery

    // multihead attention. iterate over all heads
    int h;
#pragma fuse kernel(hd_llama2_attn) parallel(h) splitk(t)
    for (h = 0; h < n_heads; h++) {
        // get the query vector for this head
        const float* qh = q + h * head_size;
        // attention scores for this head
        float att[seq_len];
        // iterate over all timesteps, including the current one
        for (int t = 0; t <= pos; t++) {
            // get the key vector for this head and at this timestep
            const float* k = key_cache + t * kv_dim + (h / kv_mul) * head_size;
            // calculate the attention score as the dot product of q and k
            float score = 0.0f;
            for (int i = 0; i < head_size; i++) {
                score += qh[i] * k[i];
            }
            score /= sqrtf(head_size);
            // save the score to the attention buffer
            att[t] = score;
        }

        // softmax the scores to get attention weights, from 0..pos inclusively
        float max_val = att[0];
        for (int t = 1; t <= pos; t++) {
            if (att[t] > max_val) {
                max_val = att[t];
            }
        }
        float sum = 0.0f;
        for (int t = 0; t <= pos; t++) {
            att[t] = expf(att[t] - max_val);
            sum += att[t];
        }
        for (int t = 0; t <= pos; t++) {
            att[t] /= sum;
        }

        // weighted sum of the values, store into xb
        float* xbh = xb + h * head_size;
        for (int i = 0; i < head_size; i++) {
            xbh[i] = 0.0f;
        }
        for (int t = 0; t <= pos; t++) {
            // get the value vector for this head and at this timestep
            const float* v = value_cache + t * kv_dim + (h / kv_mul) * head_size;
            // get the attention weight for this head and this timestep
            float a = att[t];
            // accumulate the weighted value into xb
            for (int i = 0; i < head_size; i++) {
                xbh[i] += a * v[i];
            }
        }
    }
}
