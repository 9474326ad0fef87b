/* Distillation KL written by someone who recycles their locals: the same m and z serve the
 * student's softmax, then are reset and serve the teacher's; then KL(p_t || p_s) per row. */
#include <math.h>

void kd_kl_reuse(int N, int C, const float s_logits[N][C], const float t_logits[N][C], float kl[N])
{
#pragma fuse kernel(kd_kl_reuse) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, s_logits[n][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf(s_logits[n][c] - m);
		const float lzs = m + logf(z);
		m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, t_logits[n][c]);
		z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf(t_logits[n][c] - m);
		const float lzt = m + logf(z);
		float acc = 0.0f;
		for (int c = 0; c < C; c++) {
			const float lpt = t_logits[n][c] - lzt;
			acc += expf(lpt) * (lpt - (s_logits[n][c] - lzs));
		}
		kl[n] = acc;
	}
}
