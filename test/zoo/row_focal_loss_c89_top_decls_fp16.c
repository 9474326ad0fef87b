/* row_focal_loss_c89_top_decls_fp16.c: multi-class focal loss, -(1 - p_t)^gamma * log p_t
 * with p_t the softmax probability of the target class; fp16 logits, int32 targets,
 * gamma a float parameter.
 * Style: C89, every local declared at the top of the function (int b, k; float m, s,
 * logpt, pt;) and assigned in the region; lse through the max and the sum, log p_t from
 * the target read, powf with a run-time exponent. rolling(k). */
#include <math.h>
#include <stdint.h>

void focal_loss(int B, int K, float gamma, const _Float16 logits[B][K], const int32_t target[B], float loss[B])
{
	int b, k;
	float m, s, logpt, pt;
#pragma fuse kernel(focal_loss) parallel(b) rolling(k)
	for (b = 0; b < B; b++) {
		m = -INFINITY;
		for (k = 0; k < K; k++)
			m = fmaxf(m, (float)logits[b][k]);
		s = 0.0f;
		for (k = 0; k < K; k++)
			s += expf((float)logits[b][k] - m);
		logpt = (float)logits[b][target[b]] - m - logf(s);
		pt = expf(logpt);
		loss[b] = -powf(1.0f - pt, gamma) * logpt;
	}
}
