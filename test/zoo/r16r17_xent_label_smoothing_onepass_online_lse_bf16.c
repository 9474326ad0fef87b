/* Cross-entropy with label smoothing written with an online log-sum-exp in ONE loop (Liger-kernel
 * reference style): running max and rescaled sum, the sum of logits beside; ignore_index -100. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void ce_ls_online(int T, int V, float eps, const fusecc_bf16 x[T][V], const int64_t y[T], float loss[T])
{
#pragma fuse kernel(ce_ls_online) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY, d = 0.0f, sx = 0.0f;
		for (int v = 0; v < V; v++) {
			const float xv = fusecc_bf16_to_float(x[t][v]);
			const float mn = fmaxf(m, xv);
			d = d * expf(m - mn) + expf(xv - mn);
			m = mn;
			sx += xv;
		}
		const float lse = m + logf(d);
		if (y[t] == -100) { loss[t] = 0.0f; continue; }
		loss[t] = (1.0f - eps) * (lse - fusecc_bf16_to_float(x[t][y[t]])) + eps * (lse - sx / V);
	}
}
