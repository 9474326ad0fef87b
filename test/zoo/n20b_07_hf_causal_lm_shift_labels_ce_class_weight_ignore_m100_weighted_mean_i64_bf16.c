/* HuggingFace ForCausalLMLoss written out: logits[:, :-1] against labels[:, 1:] (the shift),
 * nn.CrossEntropyLoss(weight=class_weight, ignore_index=-100, reduction="mean") = sum of
 * w[y] * nll over sum of w[y] for the kept tokens; logits upcast from bf16 per element. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void causal_lm_loss(int B, int T, int V, const fusecc_bf16 logits[B][T][V], const int64_t labels[B][T],
		const float class_weight[V], float *loss)
{
	float num = 0.0f, den = 0.0f;
#pragma fuse kernel(causal_lm_loss) parallel(b, t)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T - 1; t++) {
			const int64_t y = labels[b][t + 1];
			if (y == -100) continue;
			float m = -INFINITY;
			for (int v = 0; v < V; v++) m = fmaxf(m, fusecc_bf16_to_float(logits[b][t][v]));
			float s = 0.0f;
			for (int v = 0; v < V; v++) s += expf(fusecc_bf16_to_float(logits[b][t][v]) - m);
			const float nll = m + logf(s) - fusecc_bf16_to_float(logits[b][t][y]);
			num += class_weight[y] * nll;
			den += class_weight[y];
		}
	*loss = num / den;
}
