/* llm.c attention_forward for inference with the head size a #define (HS 64), C = NH * HS
 * computed in the set-up, packed qkv (B, T, 3C) read at `+ C` and `+ C * 2`: the k offset
 * is the size-only term 64 * NH, which steps along the packed dimension of q, k, v (it
 * must not be read as a step of NH). */
#include <math.h>

#define HS 64

void attention_forward_infer(float* out, const float* inp,
                             int B, int T, int NH) {
    int C = NH * HS;
    int C3 = C * 3;
    float scale = 1.0f / sqrtf((float)HS);

#pragma fuse kernel(hd_llmc_define64) parallel(b, t, h) rolling(t2)
    for (int b = 0; b < B; b++) {
        for (int t = 0; t < T; t++) {
            for (int h = 0; h < NH; h++) {
                const float* query_t = inp + b * T * C3 + t * C3 + h * HS;
                float att[T];

                float maxval = -10000.0f;
                for (int t2 = 0; t2 <= t; t2++) {
                    const float* key_t2 = inp + b * T * C3 + t2 * C3 + h * HS + C;
                    float val = 0.0f;
                    for (int i = 0; i < HS; i++) {
                        val += query_t[i] * key_t2[i];
                    }
                    val *= scale;
                    if (val > maxval) {
                        maxval = val;
                    }
                    att[t2] = val;
                }

                float expsum = 0.0f;
                for (int t2 = 0; t2 <= t; t2++) {
                    float expv = expf(att[t2] - maxval);
                    expsum += expv;
                    att[t2] = expv;
                }
                float expsum_inv = expsum == 0.0f ? 0.0f : 1.0f / expsum;

                float* out_bth = out + b * T * C + t * C + h * HS;
                for (int i = 0; i < HS; i++) { out_bth[i] = 0.0f; }
                for (int t2 = 0; t2 <= t; t2++) {
                    const float* value_t2 = inp + b * T * C3 + t2 * C3 + h * HS + C * 2;
                    float a = att[t2] * expsum_inv;
                    for (int i = 0; i < HS; i++) {
                        out_bth[i] += a * value_t2[i];
                    }
                }
            }
        }
    }
}
