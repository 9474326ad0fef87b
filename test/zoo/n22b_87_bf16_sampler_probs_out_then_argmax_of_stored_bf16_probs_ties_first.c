/* A bf16 sampler: probabilities returned as a bf16 tensor, and the greedy token taken as
 * torch.argmax of that bf16 tensor (first index among ties, which bf16 rounding makes common). */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void bf16_probs_argmax(int B, int V, const fusecc_bf16 logits[B][V], fusecc_bf16 probs[B][V], int64_t tok[B])
{
#pragma fuse kernel(bf16_probs_argmax) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, fusecc_bf16_to_float(logits[b][v]));
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(fusecc_bf16_to_float(logits[b][v]) - m);
		for (int v = 0; v < V; v++)
			probs[b][v] = fusecc_float_to_bf16(expf(fusecc_bf16_to_float(logits[b][v]) - m) / z);
		float best = -1.0f;
		int64_t arg = 0;
		for (int v = 0; v < V; v++) {
			const float p = fusecc_bf16_to_float(probs[b][v]);
			if (p > best) {
				best = p;
				arg = v;
			}
		}
		tok[b] = arg;
	}
}
