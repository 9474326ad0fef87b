/* GRPO/PPO's per-token clipped surrogate from the policy logits: logp = log_softmax(logits)[tok],
 * ratio = exp(logp - old_logp), loss = -min(ratio * A, clip(ratio, 1-eps, 1+eps) * A) * mask.
 * An RL engineer's C reference for a fused kernel. */
#include <math.h>
#include <stdint.h>

void grpo_token_loss(int T, int V, float clip_eps, const float logits[T][V], const int64_t tokens[T],
		     const float old_logp[T], const float adv[T], const float mask[T], float loss[T])
{
#pragma fuse kernel(grpo_token_loss) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, logits[t][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(logits[t][v] - m);
		const float logp = logits[t][tokens[t]] - m - logf(z);
		const float ratio = expf(logp - old_logp[t]);
		const float clipped = fminf(fmaxf(ratio, 1.0f - clip_eps), 1.0f + clip_eps);
		const float obj = fminf(ratio * adv[t], clipped * adv[t]);
		loss[t] = -obj * mask[t];
	}
}
