/* whisper.cpp encoder self-attention per head, unrolled from the ggml graph: fp16 Q, K, V
 * token-major [n_ctx][n_state] with the heads interleaved, `const int n_state_head =
 * n_state / n_head;` computed from the two parameters, Q and K each scaled by
 * pow(n_state_head, -0.25) in the product, the KQ row in a float buffer, ggml_soft_max
 * (-INFINITY max, exp stored, 1/sum), then KQV. */
#include <math.h>

void whisper_encoder_attn(const _Float16* Q, const _Float16* K, const _Float16* V,
                          _Float16* KQV, int n_ctx, int n_state, int n_head) {
    const int n_state_head = n_state / n_head;
    const float KQscale = powf((float)n_state_head, -0.25f);

#pragma fuse kernel(hd_whisper_attn) parallel(h, i) rolling(j)
    for (int h = 0; h < n_head; h++) {
        for (int i = 0; i < n_ctx; i++) {
            float kq[n_ctx];
            for (int j = 0; j < n_ctx; j++) {
                float sum = 0.0f;
                for (int d = 0; d < n_state_head; d++) {
                    sum += (float)Q[i*n_state + h*n_state_head + d] * KQscale * (float)K[j*n_state + h*n_state_head + d] * KQscale;
                }
                kq[j] = sum;
            }
            float max = -INFINITY;
            for (int j = 0; j < n_ctx; j++) {
                max = fmaxf(max, kq[j]);
            }
            float sum = 0.0f;
            for (int j = 0; j < n_ctx; j++) {
                kq[j] = expf(kq[j] - max);
                sum += kq[j];
            }
            const float isum = 1.0f/sum;
            for (int d = 0; d < n_state_head; d++) {
                float acc = 0.0f;
                for (int j = 0; j < n_ctx; j++) {
                    acc += kq[j]*isum*(float)V[j*n_state + h*n_state_head + d];
                }
                KQV[i*n_state + h*n_state_head + d] = (_Float16)acc;
            }
        }
    }
}
