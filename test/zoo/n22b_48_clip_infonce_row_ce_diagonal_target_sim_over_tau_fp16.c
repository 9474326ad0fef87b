/* CLIP / InfoNCE image->text loss per row: logits = sim[i][:] * logit_scale (sim already the
 * cosine similarities, fp16), target = the diagonal i. A contrastive-learning engineer's C. */
#include <math.h>

void infonce_rows(int N, float logit_scale, const _Float16 sim[N][N], float loss[N])
{
#pragma fuse kernel(infonce_rows) parallel(i)
	for (int i = 0; i < N; i++) {
		float m = -INFINITY;
		for (int j = 0; j < N; j++)
			m = fmaxf(m, logit_scale * (float)sim[i][j]);
		float z = 0.0f;
		for (int j = 0; j < N; j++)
			z += expf(logit_scale * (float)sim[i][j] - m);
		loss[i] = m + logf(z) - logit_scale * (float)sim[i][i];
	}
}
