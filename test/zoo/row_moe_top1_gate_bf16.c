/* row_moe_top1_gate_bf16: a Switch-Transformer top-1 router, softmax over the E experts
 * with the winning expert found in the max's loop: the gate is the top expert's
 * probability, exp(best - m) / s, the expert its index (first one on ties, as
 * torch.argmax). bf16 router logits, fp32 probabilities, int32 expert ids.
 * Style: argmax kept as a (value, index) pair in an if, next to the running max; no
 * strategy clause. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void router_top1(int T, int E, const fusecc_bf16 logits[T][E], float probs[T][E], float gate[T], int32_t expert[T])
{
#pragma fuse kernel(router_top1) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		float best = -INFINITY;
		int32_t top = 0;
		for (int e = 0; e < E; e++) {
			float x = fusecc_bf16_to_float(logits[t][e]);
			m = fmaxf(m, x);
			if (x > best) {
				best = x;
				top = e;
			}
		}
		float s = 0.0f;
		for (int e = 0; e < E; e++)
			s += expf(fusecc_bf16_to_float(logits[t][e]) - m);
		for (int e = 0; e < E; e++)
			probs[t][e] = expf(fusecc_bf16_to_float(logits[t][e]) - m) / s;
		gate[t] = expf(best - m) / s;
		expert[t] = top;
	}
}
