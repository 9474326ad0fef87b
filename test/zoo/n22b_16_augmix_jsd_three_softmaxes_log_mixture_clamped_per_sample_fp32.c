/* AugMix's Jensen-Shannon consistency loss, per sample: p_clean, p_aug1, p_aug2 = softmax of
 * three logit rows; log M = log(clamp((p0 + p1 + p2) / 3, 1e-7, 1)); JSD = mean of the three
 * KL(p_k || M). Ported from the paper's PyTorch snippet by a vision engineer. */
#include <math.h>

void augmix_jsd(int N, int C, const float l0[N][C], const float l1[N][C], const float l2[N][C],
		float jsd[N])
{
#pragma fuse kernel(augmix_jsd) parallel(n)
	for (int n = 0; n < N; n++) {
		float m0 = -INFINITY, m1 = -INFINITY, m2 = -INFINITY;
		for (int c = 0; c < C; c++) {
			m0 = fmaxf(m0, l0[n][c]);
			m1 = fmaxf(m1, l1[n][c]);
			m2 = fmaxf(m2, l2[n][c]);
		}
		float z0 = 0.0f, z1 = 0.0f, z2 = 0.0f;
		for (int c = 0; c < C; c++) {
			z0 += expf(l0[n][c] - m0);
			z1 += expf(l1[n][c] - m1);
			z2 += expf(l2[n][c] - m2);
		}
		float acc = 0.0f;
		for (int c = 0; c < C; c++) {
			const float p0 = expf(l0[n][c] - m0) / z0;
			const float p1 = expf(l1[n][c] - m1) / z1;
			const float p2 = expf(l2[n][c] - m2) / z2;
			float mix = (p0 + p1 + p2) / 3.0f;
			mix = fminf(fmaxf(mix, 1e-7f), 1.0f);
			const float logm = logf(mix);
			acc += p0 * (logf(p0) - logm) + p1 * (logf(p1) - logm) + p2 * (logf(p2) - logm);
		}
		jsd[n] = acc / 3.0f;
	}
}
