/* log_softmax written to a flat output, then NLL from it (ignore_index -100), bf16 logits. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
void logsm_nll_flat(int64_t T, int64_t V, const fusecc_bf16 *x, const int64_t *tgt, float *logp, float *nll)
{
#pragma fuse kernel(logsm_nll_flat) parallel(t)
	for (int64_t t = 0; t < T; t++) {
		const fusecc_bf16 *row = x + t * V;
		float m = -INFINITY;
		for (int64_t v = 0; v < V; v++) m = fmaxf(m, fusecc_bf16_to_float(row[v]));
		double s = 0.0;
		for (int64_t v = 0; v < V; v++) s += exp((double)(fusecc_bf16_to_float(row[v]) - m));
		const float lse = m + (float)log(s);
		for (int64_t v = 0; v < V; v++) logp[t * V + v] = fusecc_bf16_to_float(row[v]) - lse;
		nll[t] = tgt[t] < 0 ? 0.0f : -logp[t * V + tgt[t]];
	}
}
