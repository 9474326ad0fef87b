/* A sampler's probabilities with the temperature and log2(e) folded into one factor, exp2f
 * as a GPU programmer writes it on the CPU; fp16 probabilities out. */
#include <math.h>
#include "fusecc.h"

void probs_exp2(int B, int V, float temp, const fusecc_bf16 logits[B][V], _Float16 probs[B][V])
{
	const float k = 1.4426950408889634f / temp;
#pragma fuse kernel(probs_exp2) parallel(b)
	for (int b = 0; b < B; b++) {
		float mx = -INFINITY;
		for (int v = 0; v < V; v++) {
			const float x = fusecc_bf16_to_float(logits[b][v]);
			mx = mx > x ? mx : x;
		}
		float den = 0.0f;
		for (int v = 0; v < V; v++) den += exp2f((fusecc_bf16_to_float(logits[b][v]) - mx) * k);
		const float rden = 1.0f / den;
		for (int v = 0; v < V; v++)
			probs[b][v] = (_Float16)(exp2f((fusecc_bf16_to_float(logits[b][v]) - mx) * k) * rden);
	}
}
