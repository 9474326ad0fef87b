/* Fused linear cross-entropy (Liger's FLCE without the chunking): a PyTorch user ports
 * logits = hidden @ lm_head.T; loss = F.cross_entropy(logits, target, ignore_index=-100)
 * so that the [T][V] logits never exist: each vocab row's dot is computed and folded into
 * an online log-sum-exp. lm_head is nn.Linear's weight, [V][K]. bf16 storage, fp32 math. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void flce_forward(int T, int V, int K, const fusecc_bf16 hidden[T][K],
		  const fusecc_bf16 lm_head[V][K], const int64_t target[T], float loss[T])
{
#pragma fuse kernel(flce_forward) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY, l = 0.0f, tgt_logit = 0.0f;
		for (int v = 0; v < V; v++) {
			float z = 0.0f;
			for (int k = 0; k < K; k++)
				z += fusecc_bf16_to_float(hidden[t][k]) * fusecc_bf16_to_float(lm_head[v][k]);
			float m_new = fmaxf(m, z);
			l = l * expf(m - m_new) + expf(z - m_new);
			m = m_new;
			if (v == target[t])
				tgt_logit = z;
		}
		loss[t] = (target[t] == -100) ? 0.0f : (m + logf(l) - tgt_logit);
	}
}
