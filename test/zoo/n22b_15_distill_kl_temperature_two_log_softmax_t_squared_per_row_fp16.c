/* Hinton distillation: KL(softmax(t/T) || softmax(s/T)) * T^2 per row, both rows fp16 logits;
 * written as two log-softmaxes then sum p_t * (logp_t - logp_s). */
#include <math.h>

void kd_kl(int N, int C, float T, const _Float16 s_logits[N][C], const _Float16 t_logits[N][C],
	   float kl[N])
{
#pragma fuse kernel(kd_kl) parallel(n)
	for (int n = 0; n < N; n++) {
		float ms = -INFINITY, mt = -INFINITY;
		for (int c = 0; c < C; c++) {
			ms = fmaxf(ms, (float)s_logits[n][c] / T);
			mt = fmaxf(mt, (float)t_logits[n][c] / T);
		}
		float zs = 0.0f, zt = 0.0f;
		for (int c = 0; c < C; c++) {
			zs += expf((float)s_logits[n][c] / T - ms);
			zt += expf((float)t_logits[n][c] / T - mt);
		}
		const float lzs = ms + logf(zs), lzt = mt + logf(zt);
		float acc = 0.0f;
		for (int c = 0; c < C; c++) {
			const float lpt = (float)t_logits[n][c] / T - lzt;
			const float lps = (float)s_logits[n][c] / T - lzs;
			acc += expf(lpt) * (lpt - lps);
		}
		kl[n] = acc * T * T;
	}
}
