/* Per-token cross-entropy over Llama-3's 128256-entry vocabulary with label smoothing 0.1,
 * bf16 logits, int64 targets, ignore_index -100 gives 0. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void xent_ls_128k(int T, float smoothing, const fusecc_bf16 logits[T][128256], const int64_t target[T],
		  float loss[T])
{
#pragma fuse kernel(xent_ls_128k) parallel(t) rolling(v)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < 128256; v++) m = fmaxf(m, fusecc_bf16_to_float(logits[t][v]));
		float sumexp = 0.0f, sumlogit = 0.0f;
		for (int v = 0; v < 128256; v++) {
			const float x = fusecc_bf16_to_float(logits[t][v]);
			sumexp += expf(x - m);
			sumlogit += x;
		}
		const float lse = m + logf(sumexp);
		if (target[t] < 0) {
			loss[t] = 0.0f;
			continue;
		}
		const float nll = lse - fusecc_bf16_to_float(logits[t][target[t]]);
		const float uniform = lse - sumlogit / 128256.0f;
		loss[t] = (1.0f - smoothing) * nll + smoothing * uniform;
	}
}
