/* The k3 KL estimator between the policy and the reference model at the sampled token, from both
 * models' logits rows (bf16): d = logp_ref - logp; kl = exp(d) - d - 1. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void k3_kl(int T, int V, const fusecc_bf16 pol[T][V], const fusecc_bf16 ref[T][V], const int64_t tok[T],
	   float kl[T])
{
#pragma fuse kernel(k3_kl) parallel(t)
	for (int t = 0; t < T; t++) {
		float mp = -INFINITY, mr = -INFINITY;
		for (int v = 0; v < V; v++) {
			mp = fmaxf(mp, fusecc_bf16_to_float(pol[t][v]));
			mr = fmaxf(mr, fusecc_bf16_to_float(ref[t][v]));
		}
		float zp = 0.0f, zr = 0.0f;
		for (int v = 0; v < V; v++) {
			zp += expf(fusecc_bf16_to_float(pol[t][v]) - mp);
			zr += expf(fusecc_bf16_to_float(ref[t][v]) - mr);
		}
		const float lp = fusecc_bf16_to_float(pol[t][tok[t]]) - mp - logf(zp);
		const float lr = fusecc_bf16_to_float(ref[t][tok[t]]) - mr - logf(zr);
		const float d = lr - lp;
		kl[t] = expf(d) - d - 1.0f;
	}
}
