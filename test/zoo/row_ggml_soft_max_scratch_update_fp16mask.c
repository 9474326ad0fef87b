/* row_ggml_soft_max_scratch_update_fp16mask.c: ggml_compute_forward_soft_max_f32 as plain
 * C, one ggml vec call per loop: each row copied to a scratch wp and scaled
 * (ggml_vec_cpy + ggml_vec_scale), then updated in place by a second loop with the fp16
 * mask row times the ALiBi slope (ggml_vec_mad), max, dp[i] = expf(wp[i] - max) summed in
 * ggml_float (double), sum = 1.0/sum and dp scaled in place.
 * Style: C engine port, flat pointers, `typedef double ggml_float`, rows i1 over a set-up
 * local nr = ne01 * ne02 (query rows x heads), the mask broadcast over heads (row
 * i1 % ne01), no strategy, parallel(i1). */
#include <math.h>

typedef double ggml_float;

void soft_max_f32(const float* src0, const _Float16* src1, float* dst,
                  int nc, int ne01, int ne02, float scale, float slope) {
    const int nr = ne01 * ne02;
#pragma fuse kernel(soft_max_f32) parallel(i1)
    for (int i1 = 0; i1 < nr; i1++) {
        float wp[nc];
        const float * sp = src0 + i1*nc;
        float * dp = dst + i1*nc;
        // broadcast the mask across rows
        const _Float16 * mp = src1 + (i1%ne01)*nc;

        for (int i = 0; i < nc; ++i) {
            wp[i] = sp[i] * scale;
        }
        for (int i = 0; i < nc; ++i) {
            wp[i] += slope*(float)mp[i];
        }

        float max = -INFINITY;
        for (int i = 0; i < nc; ++i) {
            max = fmaxf(max, wp[i]);
        }

        ggml_float sum = 0.0;
        for (int i = 0; i < nc; ++i) {
            float val = expf(wp[i] - max);
            sum += (ggml_float)val;
            dp[i] = val;
        }

        sum = 1.0/sum;
        for (int i = 0; i < nc; ++i) {
            dp[i] *= sum;
        }
    }
}
