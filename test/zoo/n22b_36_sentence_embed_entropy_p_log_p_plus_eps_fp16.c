/* Prediction entropy for active learning / uncertainty, written the common way with an epsilon
 * inside the log: p = softmax(x); H = -sum p * log(p + 1e-10). fp16 logits. */
#include <math.h>

void pred_entropy(int N, int C, const _Float16 x[N][C], float ent[N])
{
#pragma fuse kernel(pred_entropy) parallel(n)
	for (int n = 0; n < N; n++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++)
			mx = fmaxf(mx, (float)x[n][c]);
		float sum = 0.0f;
		for (int c = 0; c < C; c++)
			sum += expf((float)x[n][c] - mx);
		float h = 0.0f;
		for (int c = 0; c < C; c++) {
			const float p = expf((float)x[n][c] - mx) / sum;
			h -= p * logf(p + 1e-10f);
		}
		ent[n] = h;
	}
}
