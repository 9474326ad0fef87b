/* Mixtral's MoE router (MixtralSparseMoeBlock): routing_weights = softmax(router_logits, dim=1,
 * dtype=float), topk(2), renormalised by their sum; top-2 written as two argmax passes, the
 * second skipping the first expert; expert ids int32 (selected_experts), weights fp32. */
#include <math.h>
#include <stdint.h>

void mixtral_router_top2(int num_tokens, int num_experts, const float router_logits[num_tokens][num_experts],
		int32_t selected_experts[num_tokens][2], float routing_weights[num_tokens][2])
{
#pragma fuse kernel(router_top2) parallel(t)
	for (int t = 0; t < num_tokens; t++) {
		float m = -INFINITY;
		for (int e = 0; e < num_experts; e++) m = fmaxf(m, router_logits[t][e]);
		float s = 0.0f;
		for (int e = 0; e < num_experts; e++) s += expf(router_logits[t][e] - m);
		int i1 = 0;
		float v1 = -INFINITY;
		for (int e = 0; e < num_experts; e++)
			if (router_logits[t][e] > v1) { v1 = router_logits[t][e]; i1 = e; }
		int i2 = 0;
		float v2 = -INFINITY;
		for (int e = 0; e < num_experts; e++)
			if (e != i1 && router_logits[t][e] > v2) { v2 = router_logits[t][e]; i2 = e; }
		const float p1 = expf(v1 - m) / s, p2 = expf(v2 - m) / s;
		selected_experts[t][0] = i1;
		selected_experts[t][1] = i2;
		routing_weights[t][0] = p1 / (p1 + p2);
		routing_weights[t][1] = p2 / (p1 + p2);
	}
}
