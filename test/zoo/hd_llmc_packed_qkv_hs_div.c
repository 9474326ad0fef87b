/* llm.c attention_forward kept as llm.c writes it for inference: inp is (B, T, 3C) with
 * q, k, v packed, `int hs = C / NH;` computes the head size from C and NH (both
 * parameters), offsets `+ C` and `+ C * 2` pick k and v, att is a VLA row of scratch,
 * maxval = -10000.0f with a branch max, out zeroed then accumulated. fusecc reads C as
 * NH * hs (the fused C asserts C % NH == 0; the launcher refuses other sizes) and
 * specialises hs as a run-time head dim. */
#include <math.h>

void attention_forward_infer(float* out, const float* inp,
                             int B, int T, int C, int NH) {
    int C3 = C * 3;
    int hs = C / NH; // head size
    float scale = 1.0 / sqrtf(hs);

#pragma fuse kernel(hd_llmc_infer) parallel(b, t, h) rolling(t2)
    for (int b = 0; b < B; b++) {
        for (int t = 0; t < T; t++) {
            for (int h = 0; h < NH; h++) {
                const float* query_t = inp + b * T * C3 + t * C3 + h * hs;
                float att[T];

                float maxval = -10000.0f;
                for (int t2 = 0; t2 <= t; t2++) {
                    const float* key_t2 = inp + b * T * C3 + t2 * C3 + h * hs + C;
                    float val = 0.0f;
                    for (int i = 0; i < hs; i++) {
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

                float* out_bth = out + b * T * C + t * C + h * hs;
                for (int i = 0; i < hs; i++) { out_bth[i] = 0.0f; }
                for (int t2 = 0; t2 <= t; t2++) {
                    const float* value_t2 = inp + b * T * C3 + t2 * C3 + h * hs + C * 2;
                    float a = att[t2] * expsum_inv;
                    for (int i = 0; i < hs; i++) {
                        out_bth[i] += a * value_t2[i];
                    }
                }
            }
        }
    }
}
