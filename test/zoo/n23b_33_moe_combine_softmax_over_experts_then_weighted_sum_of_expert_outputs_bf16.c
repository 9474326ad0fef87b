/* Soft MoE / dense-gated MoE combine: gate = softmax(router_logits[t]) over E experts, then
 * y[t][d] = sum_e gate[e] * expert_out[t][e][d]. Softmax followed by a small GEMV per token,
 * the gates kept in a local array of E (a #define). bf16 expert outputs. */
#include <math.h>
#include "fusecc.h"

#define E 8

void moe_dense_combine(int T, int D, const float router_logits[T][E], const fusecc_bf16 expert_out[T][E][D],
		       fusecc_bf16 y[T][D])
{
#pragma fuse kernel(moe_dense_combine) parallel(t)
	for (int t = 0; t < T; t++) {
		float gate[E];
		float m = -INFINITY;
		for (int e = 0; e < E; e++)
			m = fmaxf(m, router_logits[t][e]);
		float z = 0.0f;
		for (int e = 0; e < E; e++) {
			gate[e] = expf(router_logits[t][e] - m);
			z += gate[e];
		}
		for (int e = 0; e < E; e++)
			gate[e] /= z;
		for (int d = 0; d < D; d++) {
			float acc = 0.0f;
			for (int e = 0; e < E; e++)
				acc += gate[e] * fusecc_bf16_to_float(expert_out[t][e][d]);
			y[t][d] = fusecc_float_to_bf16(acc);
		}
	}
}
