/* Distillation from a teacher's stored top-K (ids and logprobs, as offline KD pipelines
 * keep them): KL(teacher_topk || student) = sum_k exp(tlp_k) * (tlp_k - (s[id_k] - lse_s)),
 * the student's LSE over its full vocab first. bf16 student logits, int64 ids, K = 20. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

#define TOPK 20

void topk_kd_kl(int T, int V, const fusecc_bf16 student[T][V], const int64_t t_ids[T][TOPK],
		const float t_logp[T][TOPK], float kl[T])
{
#pragma fuse kernel(topk_kd_kl) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, fusecc_bf16_to_float(student[t][v]));
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(fusecc_bf16_to_float(student[t][v]) - m);
		const float lse = m + logf(z);
		float acc = 0.0f;
		for (int k = 0; k < TOPK; k++) {
			const float s_lp = fusecc_bf16_to_float(student[t][t_ids[t][k]]) - lse;
			acc += expf(t_logp[t][k]) * (t_logp[t][k] - s_lp);
		}
		kl[t] = acc;
	}
}
