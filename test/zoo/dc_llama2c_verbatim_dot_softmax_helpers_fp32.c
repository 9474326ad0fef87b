/* dc_llama2c_verbatim_dot_softmax_helpers_fp32.c: llama2.c's attention as written, the porter adding
 * only the pragma: a `dot(const float *a, const float *b, int n)` helper called with pointer
 * locals (qh, k) as arguments, `softmax(att, pos + 1)` on a VLA of scores, fp32, run-time head
 * size, flat caches [t][dim]. splitk(t), parallel(h). softmax is static here because the GPU
 * check links the original twice (a non-static helper is a duplicate symbol there). */
#include <math.h>

static float dot(const float* a, const float* b, int n) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) {
        s += a[i] * b[i];
    }
    return s;
}

static void softmax(float* x, int size) {
    // find max value (for numerical stability)
    float max_val = x[0];
    for (int i = 1; i < size; i++) {
        if (x[i] > max_val) {
            max_val = x[i];
        }
    }
    // exp and sum
    float sum = 0.0f;
    for (int i = 0; i < size; i++) {
        x[i] = expf(x[i] - max_val);
        sum += x[i];
    }
    // normalize
    for (int i = 0; i < size; i++) {
        x[i] /= sum;
    }
}

void mha_decode(float* xb, const float* q, const float* key_cache, const float* value_cache,
                int n_heads, int head_size, int seq_len, int pos) {
    int dim = n_heads * head_size;
#pragma fuse kernel(mha_decode) parallel(h) splitk(t)
    for (int h = 0; h < n_heads; h++) {
        const float* qh = q + h * head_size;
        float att[seq_len];
        for (int t = 0; t <= pos; t++) {
            const float* k = key_cache + t * dim + h * head_size;
            att[t] = dot(qh, k, head_size) / sqrtf(head_size);
        }
        softmax(att, pos + 1);
        float* xbh = xb + h * head_size;
        for (int i = 0; i < head_size; i++) xbh[i] = 0.0f;
        for (int t = 0; t <= pos; t++) {
            const float* v = value_cache + t * dim + h * head_size;
            float a = att[t];
            for (int i = 0; i < head_size; i++) xbh[i] += a * v[i];
        }
    }
}
