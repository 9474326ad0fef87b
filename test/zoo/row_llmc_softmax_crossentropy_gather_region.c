/* row_llmc_softmax_crossentropy_gather_region.c: llm.c's softmax_forward followed by
 * crossentropy_forward in one function, as the forward pass calls them back to back:
 * region 1 writes probs (B,T,Vp) (maxval seeded -10000, if-max, exps stored then `/= sum`,
 * the padded tail zeroed), region 2 is a gather only, losses (B,T) = -logf(probs_bt[ix]),
 * ix read from int targets.
 * Style: llm.c verbatim, flat float pointers, row pointers `probs + b * T * Vp + t * Vp`,
 * no strategy, parallel(b, t) in both regions. */
#include <math.h>

void softmax_crossentropy_forward(float* probs, float* losses, const float* logits,
                                  const int* targets, int B, int T, int V, int Vp) {
#pragma fuse kernel(softmax_fwd) parallel(b, t)
    for (int b = 0; b < B; b++) {
        for (int t = 0; t < T; t++) {
            const float* logits_bt = logits + b * T * Vp + t * Vp;
            float* probs_bt = probs + b * T * Vp + t * Vp;
            float maxval = -10000.0f;
            for (int i = 0; i < V; i++) {
                if (logits_bt[i] > maxval) {
                    maxval = logits_bt[i];
                }
            }
            float sum = 0.0f;
            for (int i = 0; i < V; i++) {
                probs_bt[i] = expf(logits_bt[i] - maxval);
                sum += probs_bt[i];
            }
            for (int i = 0; i < V; i++) {
                probs_bt[i] /= sum;
            }
            for (int i = V; i < Vp; i++) {
                probs_bt[i] = 0.0f;
            }
        }
    }

#pragma fuse kernel(crossentropy_fwd) parallel(b, t)
    for (int b = 0; b < B; b++) {
        for (int t = 0; t < T; t++) {
            // loss = -log(probs[target])
            float* probs_bt = probs + b * T * Vp + t * Vp;
            int ix = targets[b * T + t];
            losses[b * T + t] = -logf(probs_bt[ix]);
        }
    }
}
