/* An eager port that materialises `scaled = (logits / T).to(torch.bfloat16)` (an output the
 * caller logs), then log_softmax of the stored bf16 tensor and the NLL of the target. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void scaled_nll(int N, int V, float T, const float logits[N][V], const int64_t target[N], fusecc_bf16 scaled[N][V],
		float nll[N])
{
#pragma fuse kernel(scaled_nll) parallel(n)
	for (int n = 0; n < N; n++) {
		for (int v = 0; v < V; v++)
			scaled[n][v] = fusecc_float_to_bf16(logits[n][v] / T);
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, fusecc_bf16_to_float(scaled[n][v]));
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(fusecc_bf16_to_float(scaled[n][v]) - m);
		nll[n] = m + logf(z) - fusecc_bf16_to_float(scaled[n][target[n]]);
	}
}
