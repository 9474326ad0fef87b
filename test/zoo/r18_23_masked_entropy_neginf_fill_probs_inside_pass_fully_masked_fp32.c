/* Entropy of a masked policy (RL with invalid-action masking, as a C port of
 * Categorical(logits=masked_fill(~valid, -inf)).entropy()): p = exp(x - m) / z inside the
 * entropy loop, h -= p * (x - m - log z) skipping masked actions; a state with no valid action
 * gives NaN, as torch does. fp32. */
#include <math.h>
#include <stdbool.h>

void masked_entropy(int B, int A, const bool valid[B][A], const float logits[B][A], float ent[B])
{
#pragma fuse kernel(masked_entropy) parallel(b) rolling(a)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int a = 0; a < A; a++) m = fmaxf(m, valid[b][a] ? logits[b][a] : -INFINITY);
		float z = 0.0f;
		for (int a = 0; a < A; a++) z += expf((valid[b][a] ? logits[b][a] : -INFINITY) - m);
		const float lz = logf(z);
		float h = 0.0f;
		for (int a = 0; a < A; a++) {
			const float x = valid[b][a] ? logits[b][a] : -INFINITY;
			const float p = expf(x - m) / z;
			if (valid[b][a]) h -= p * (x - m - lz);
		}
		ent[b] = h;
	}
}
