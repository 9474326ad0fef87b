/* row_router_zloss_entropy_probs_c89_fp32.c: MoE training helper: router probabilities,
 * the router z-loss (ST-MoE: logsumexp(logits)^2, stored between the sum loop and the
 * entropy loop) and the entropy of the router distribution, the probabilities stored in
 * the entropy loop itself. fp32, C89 declarations at the top, expert count a #define. */
#include <math.h>
#define NE 64

void router_stats(int T, const float logits[T][NE], float probs[T][NE],
                  float zloss[T], float entropy[T])
{
    int t, e;
    float m, z, lse, p, ent;
#pragma fuse kernel(router_stats) parallel(t) rolling(e)
    for (t = 0; t < T; t++) {
        m = logits[t][0];
        for (e = 1; e < NE; e++) m = fmaxf(m, logits[t][e]);
        z = 0.0f;
        for (e = 0; e < NE; e++) z += expf(logits[t][e] - m);
        lse = m + logf(z);
        zloss[t] = lse * lse;
        ent = 0.0f;
        for (e = 0; e < NE; e++) {
            p = expf(logits[t][e] - lse);
            probs[t][e] = p;
            ent -= p * (logits[t][e] - lse);
        }
        entropy[t] = ent;
    }
}
