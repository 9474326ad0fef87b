/* pf_whisper_qk_scaled_locals_interleaved_rtD_fp16.c: whisper.cpp's encoder self-attention per head,
 * unrolled from the ggml graph: fp16 Q, K, V token-major [n_ctx][n_state] with the heads
 * interleaved (n_state = n_head * n_state_head, the head size a run-time parameter), Q and K
 * each scaled by pow(n_state_head, -0.25) in locals inside the d loop (`float qv = ... *
 * KQscale; float kv = ...; sum += qv * kv;`), the KQ row in a float buffer, ggml_soft_max
 * (-INFINITY max, exp stored, 1/sum), then KQV with d outside j. rolling(j). */
#include <math.h>

void whisper_encoder_attn(const _Float16* Q, const _Float16* K, const _Float16* V,
                          _Float16* KQV, int n_ctx, int n_head, int n_state_head) {
    const int n_state = n_head * n_state_head;
    const float KQscale = powf((float)n_state_head, -0.25f);

#pragma fuse kernel(whisper_encoder_attn) parallel(h, i) rolling(j)
    for (int h = 0; h < n_head; h++) {
        for (int i = 0; i < n_ctx; i++) {
            float kq[n_ctx];
            for (int j = 0; j < n_ctx; j++) {
                float sum = 0.0f;
                for (int d = 0; d < n_state_head; d++) {
                    float qv = (float)Q[i*n_state + h*n_state_head + d] * KQscale;
                    float kv = (float)K[j*n_state + h*n_state_head + d] * KQscale;
                    sum += qv*kv;
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
