/* ix11_vllm_rms_norm_flat_decl_row_ptrs_fp32.c: RMSNorm over the hidden size of each
 * token, fp32, as vLLM's rms_norm reference kernel loops (one token per block).
 * Style: input and output declared flat, `const float input[num_tokens * hidden_size]`,
 * a row pointer per token for each, `const float *x = input + (int64_t)t * hidden_size;`,
 * `float *y = out + ...`, the variance accumulated then `rsqrtf` spelled out. */
#include <math.h>
#include <stdint.h>
void rms_norm(int num_tokens, int hidden_size, float epsilon, const float input[num_tokens * hidden_size],
              const float weight[hidden_size], float out[num_tokens * hidden_size])
{
#pragma fuse kernel(rms_norm) parallel(t)
    for (int t = 0; t < num_tokens; t++) {
        const float *x = input + (int64_t)t * hidden_size;
        float *y = out + (int64_t)t * hidden_size;
        float variance = 0.0f;
        for (int i = 0; i < hidden_size; i++)
            variance += x[i] * x[i];
        variance = variance / hidden_size;
        const float s_variance = 1.0f / sqrtf(variance + epsilon);
        for (int i = 0; i < hidden_size; i++)
            y[i] = x[i] * s_variance * weight[i];
    }
}
