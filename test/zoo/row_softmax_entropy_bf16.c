/* row_softmax_entropy_bf16.c: the entropy of each row's softmax, H = -sum p * log p, as a
 * policy-gradient loss adds it for exploration (torch.distributions.Categorical(logits=
 * x).entropy()). bf16 logits, fp32 entropy, run-time V.
 * Style: max, sum of exp, log of the sum as a local, then p and log p formed per element
 * in the last loop: h -= p * (x - m - logz) with p = expf(x - m) / z. No strategy clause.
 * fusecc expands the last sum into sum e*(x - k) and sum e (e = expf(x - m), each
 * repaired as the max moves; k = x[n][0]) and recombines
 * h = -(sum e*(x - k)) / z - (k - m - logz) * (sum e) / z. Written for the separable-sums
 * work. */
#include <math.h>
#include "fusecc.h"

void softmax_entropy(int N, int V, const fusecc_bf16 x[N][V], float ent[N])
{
#pragma fuse kernel(softmax_entropy) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, fusecc_bf16_to_float(x[n][v]));
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(fusecc_bf16_to_float(x[n][v]) - m);
		const float logz = logf(z);
		float h = 0.0f;
		for (int v = 0; v < V; v++) {
			const float xv = fusecc_bf16_to_float(x[n][v]);
			const float p = expf(xv - m) / z;
			h -= p * (xv - m - logz);
		}
		ent[n] = h;
	}
}
