/* (no schedule clause) MoE router probabilities over E experts for logits[B][T][E] in bf16,
 * written op by op: max, exp-sum, normalise. */
#include <math.h>
#include "fusecc.h"

void router_probs(int B, int T, int E, const fusecc_bf16 logits[B][T][E], float probs[B][T][E])
{
#pragma fuse kernel(router_probs)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++) {
			float mx = -INFINITY;
			for (int e = 0; e < E; e++) mx = fmaxf(mx, fusecc_bf16_to_float(logits[b][t][e]));
			float z = 0.0f;
			for (int e = 0; e < E; e++) z += expf(fusecc_bf16_to_float(logits[b][t][e]) - mx);
			for (int e = 0; e < E; e++) probs[b][t][e] = expf(fusecc_bf16_to_float(logits[b][t][e]) - mx) / z;
		}
}
