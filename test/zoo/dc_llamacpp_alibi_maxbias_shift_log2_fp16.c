/* llama.cpp-style decode attention with ALiBi (MPT, BLOOM through ggml_soft_max_ext):
 * the slope per head from max_bias as ggml computes it (n_head_log2 = 1 << floor(log2 n),
 * m0/m1, the ternary on h < n_head_log2), fp16 KV cache [n_kv][n_head][head_dim]
 * (token-major, llama.cpp's non-transposed layout), the kq mask row of floats added times
 * the slope, kq_scale given, exps in a float buffer, fp16 head dim 128 as a #define. */
#include <math.h>

#define HEAD_DIM 128

void alibi_decode(const float* q, const _Float16* k_cache, const _Float16* v_cache,
                  const float* kq_mask, float* out, int n_head, int n_kv,
                  float kq_scale, float max_bias) {
    const int n_head_log2 = 1 << (int)floorf(log2f((float)n_head));
    const float m0 = powf(2.0f, -(max_bias) / n_head_log2);
    const float m1 = powf(2.0f, -(max_bias / 2.0f) / n_head_log2);

#pragma fuse kernel(alibi_decode) parallel(h) splitk(j)
    for (int h = 0; h < n_head; h++) {
        const float slope = h < n_head_log2 ? powf(m0, h + 1) : powf(m1, 2*(h - n_head_log2) + 1);
        float kq[n_kv];
        float max = -INFINITY;
        for (int j = 0; j < n_kv; j++) {
            float s = 0.0f;
            for (int d = 0; d < HEAD_DIM; d++) {
                s += q[h*HEAD_DIM + d] * (float)k_cache[(j*n_head + h)*HEAD_DIM + d];
            }
            kq[j] = s*kq_scale + slope*kq_mask[j];
            max = fmaxf(max, kq[j]);
        }
        float sum = 0.0f;
        for (int j = 0; j < n_kv; j++) {
            sum += expf(kq[j] - max);
        }
        for (int d = 0; d < HEAD_DIM; d++) {
            float acc = 0.0f;
            for (int j = 0; j < n_kv; j++) {
                acc += expf(kq[j] - max) * (float)v_cache[(j*n_head + h)*HEAD_DIM + d];
            }
            out[h*HEAD_DIM + d] = acc / sum;
        }
    }
}
