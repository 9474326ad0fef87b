/* CLIP's symmetric loss as the paper's pseudo-code: logits = I_e @ T_e.T * exp(t); loss_i =
 * CE(logits, arange) along rows, loss_t along columns. A C port with the logits matrix as
 * input and the column LSE written as a second region over columns. */
#include <math.h>

void clip_loss_rows_cols(int N, float logit_scale, const float logits[N][N], float loss_img[N], float loss_txt[N])
{
#pragma fuse kernel(clip_rows) parallel(i)
	for (int i = 0; i < N; i++) {
		float m = -INFINITY;
		for (int j = 0; j < N; j++)
			m = fmaxf(m, logits[i][j] * logit_scale);
		float z = 0.0f;
		for (int j = 0; j < N; j++)
			z += expf(logits[i][j] * logit_scale - m);
		loss_img[i] = m + logf(z) - logits[i][i] * logit_scale;
	}
#pragma fuse kernel(clip_cols) parallel(j)
	for (int j = 0; j < N; j++) {
		float m = -INFINITY;
		for (int i = 0; i < N; i++)
			m = fmaxf(m, logits[i][j] * logit_scale);
		float z = 0.0f;
		for (int i = 0; i < N; i++)
			z += expf(logits[i][j] * logit_scale - m);
		loss_txt[j] = m + logf(z) - logits[j][j] * logit_scale;
	}
}
