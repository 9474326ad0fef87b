/* Policy-gradient code (PPO): log-probabilities of the actions over a row's logits kept in a
 * local VLA, their entropy, and the log-prob of the sampled action (int64). fp16 logits. */
#include <math.h>
#include <stdint.h>

void policy_stats(int B, int A, const _Float16 logits[B][A], const int64_t action[B], float logp_a[B], float entropy[B])
{
#pragma fuse kernel(policy_stats) parallel(b)
	for (int b = 0; b < B; b++) {
		float lp[A];
		float m = -INFINITY;
		for (int a = 0; a < A; a++) {
			lp[a] = (float)logits[b][a];
			m = fmaxf(m, lp[a]);
		}
		float z = 0.0f;
		for (int a = 0; a < A; a++) z += expf(lp[a] - m);
		const float lz = m + logf(z);
		float ent = 0.0f;
		for (int a = 0; a < A; a++) {
			lp[a] -= lz;
			ent -= expf(lp[a]) * lp[a];
		}
		entropy[b] = ent;
		logp_a[b] = lp[action[b]];
	}
}
