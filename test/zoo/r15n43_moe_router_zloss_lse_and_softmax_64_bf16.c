/* ST-MoE router: softmax over E = 64 experts (probabilities stored fp32) and the router z-loss
 * term lse^2 per token; bf16 router logits. */
#include <math.h>
#include "fusecc.h"

void router_zloss(int T, const fusecc_bf16 logits[T][64], float probs[T][64], float z2[T])
{
#pragma fuse kernel(router_zloss) parallel(t)
	for (int t = 0; t < T; t++) {
		float mx = -INFINITY;
		for (int e = 0; e < 64; e++) mx = fmaxf(mx, fusecc_bf16_to_float(logits[t][e]));
		float den = 0.0f;
		for (int e = 0; e < 64; e++) den += expf(fusecc_bf16_to_float(logits[t][e]) - mx);
		for (int e = 0; e < 64; e++) probs[t][e] = expf(fusecc_bf16_to_float(logits[t][e]) - mx) / den;
		const float lse = mx + logf(den);
		z2[t] = lse * lse;
	}
}
