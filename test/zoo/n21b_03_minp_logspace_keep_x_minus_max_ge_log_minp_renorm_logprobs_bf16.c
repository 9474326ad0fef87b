/* min-p filtering done in log space (a sampler author avoiding exp): keep token c when
 * (x - max) >= log(min_p), i.e. p_c >= min_p * p_max; renormalised log-probs of the kept
 * set, -INFINITY for the dropped ones. bf16 logits, fp32 log-probs. */
#include <math.h>
#include "fusecc.h"

void minp_logprobs(int B, int V, float min_p, const fusecc_bf16 logits[B][V], float logp[B][V])
{
	const float log_minp = logf(min_p);
#pragma fuse kernel(minp_logprobs) parallel(b)
	for (int b = 0; b < B; b++) {
		float mx = -INFINITY;
		for (int v = 0; v < V; v++) mx = fmaxf(mx, fusecc_bf16_to_float(logits[b][v]));
		float z = 0.0f;
		for (int v = 0; v < V; v++) {
			float d = fusecc_bf16_to_float(logits[b][v]) - mx;
			if (d >= log_minp) z += expf(d);
		}
		float lz = logf(z);
		for (int v = 0; v < V; v++) {
			float d = fusecc_bf16_to_float(logits[b][v]) - mx;
			logp[b][v] = d >= log_minp ? d - lz : -INFINITY;
		}
	}
}
