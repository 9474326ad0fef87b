/* Liger's JSD loss (generalised Jensen-Shannon, beta = 0.5) from student and teacher logits:
 * both rows log-softmaxed, then per class m = 0.5 * (p + q), jsd += 0.5 * p * (logp - log m)
 * + 0.5 * q * (logq - log m); fp16 logits, one fp32 loss per row. */
#include <math.h>

void jsd_rows(int BT, int V, const _Float16 student[BT][V], const _Float16 teacher[BT][V], float loss[BT])
{
#pragma fuse kernel(jsd_rows) parallel(r)
	for (int r = 0; r < BT; r++) {
		float ms = -INFINITY, mt = -INFINITY;
		for (int v = 0; v < V; v++) {
			ms = fmaxf(ms, (float)student[r][v]);
			mt = fmaxf(mt, (float)teacher[r][v]);
		}
		float ss = 0.0f, st = 0.0f;
		for (int v = 0; v < V; v++) {
			ss += expf((float)student[r][v] - ms);
			st += expf((float)teacher[r][v] - mt);
		}
		const float lse_s = ms + logf(ss), lse_t = mt + logf(st);
		float jsd = 0.0f;
		for (int v = 0; v < V; v++) {
			const float lq = (float)student[r][v] - lse_s, lp = (float)teacher[r][v] - lse_t;
			const float p = expf(lp), q = expf(lq);
			const float lm = logf(0.5f * (p + q));
			jsd += 0.5f * p * (lp - lm) + 0.5f * q * (lq - lm);
		}
		loss[r] = jsd;
	}
}
