/* llm.c layernorm_forward verbatim: inp + b*T*C + t*C, two passes (mean, then variance about
 * it), rstd = 1 / sqrtf(v + eps) with eps = 1e-5f a local, out = n * weight + bias, mean and
 * rstd cached for the backward pass. */
#include <math.h>

void layernorm_forward(float *out, float *mean, float *rstd, const float *inp, const float *weight,
		const float *bias, int B, int T, int C)
{
	float eps = 1e-5f;
#pragma fuse kernel(layernorm_forward) parallel(b, t)
	for (int b = 0; b < B; b++) {
		for (int t = 0; t < T; t++) {
			const float *x = inp + b * T * C + t * C;
			float m = 0.0f;
			for (int i = 0; i < C; i++) {
				m += x[i];
			}
			m = m / C;
			float v = 0.0f;
			for (int i = 0; i < C; i++) {
				float xshift = x[i] - m;
				v += xshift * xshift;
			}
			v = v / C;
			float s = 1.0f / sqrtf(v + eps);
			float *out_bt = out + b * T * C + t * C;
			for (int i = 0; i < C; i++) {
				float n = (s * (x[i] - m));
				float o = n * weight[i] + bias[i];
				out_bt[i] = o;
			}
			mean[b * T + t] = m;
			rstd[b * T + t] = s;
		}
	}
}
