/* xent_int64.c: cross-entropy with class indices as PyTorch stores them
 * (torch.nn.functional.cross_entropy(logits, target, reduction='none'), target an int64
 * tensor): loss[t] = logsumexp(logits[t]) - logits[t][target[t]]. A target out of [0, V)
 * is the caller's contract. Style: `const int64_t target[T]` read as a subscript; the max
 * as a ternary from -INFINITY, the sum as `z = z + e`; no strategy (fusecc picks one).
 * fp32 logits and math; T = 4096 ... 32768, V = 32000 ... 128256. */
#include <math.h>
#include <stdint.h>

void xent_int64(int T, int V, const float logits[T][V], const int64_t target[T], float loss[T])
{
#pragma fuse kernel(xent_int64) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = logits[t][v] > m ? logits[t][v] : m;
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z = z + expf(logits[t][v] - m);
		loss[t] = m + logf(z) - logits[t][target[t]];
	}
}
