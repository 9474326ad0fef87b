/* ix05_decode_static_cache_ctxlens_break_fp32q.c: decode against a contiguous max-length
 * KV cache (HF static cache), fp32 query, fp16 cache, MQA, split-k over the keys.
 * Style: every loop runs to MAX_LEN and stops with `if (j >= context_lens[b]) break;`;
 * the exponentials are stored back into the scores in place, `s[j] = expf(s[j] - m)`,
 * under that break. #define sizes, int32 context_lens. */
#include <math.h>
#include <stdint.h>

#define MAX_LEN 4096
#define D 64

void decode_static_cache(int B, int NH, float scale, const float q[B][NH][D],
                         const _Float16 k_cache[B][MAX_LEN][D], const _Float16 v_cache[B][MAX_LEN][D],
                         const int32_t context_lens[B], float out[B][NH][D])
{
#pragma fuse kernel(decode_static_cache) parallel(b, h) splitk(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < NH; h++) {
            float s[MAX_LEN];
            float m = -INFINITY;
            for (int j = 0; j < MAX_LEN; j++) {
                if (j >= context_lens[b]) break;
                float dot = 0.0f;
                for (int d = 0; d < D; d++)
                    dot += q[b][h][d] * (float)k_cache[b][j][d];
                s[j] = dot * scale;
                m = fmaxf(m, s[j]);
            }
            float l = 0.0f;
            for (int j = 0; j < MAX_LEN; j++) {
                if (j >= context_lens[b]) break;
                s[j] = expf(s[j] - m);
                l += s[j];
            }
            for (int d = 0; d < D; d++) {
                float acc = 0.0f;
                for (int j = 0; j < MAX_LEN; j++) {
                    if (j >= context_lens[b]) break;
                    acc += s[j] * (float)v_cache[b][j][d];
                }
                out[b][h][d] = acc / l;
            }
        }
}
