/* Log-sum-exp over the allowed classes only (constrained decoding, a uint8 allow-list), written
 * by someone who takes the max over ALL classes (cheaper, still a valid shift) and skips the
 * banned ones only in the sum with `continue`; stores the shift too. fp32. */
#include <math.h>
#include <stdint.h>

void allowed_lse(int B, int V, const uint8_t allowed[B][V], const float logits[B][V], float shift[B], float lse[B])
{
#pragma fuse kernel(allowed_lse) parallel(b) rolling(v)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, logits[b][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++) {
			if (!allowed[b][v]) continue;
			z += expf(logits[b][v] - m);
		}
		shift[b] = m;
		lse[b] = m + logf(z);
	}
}
