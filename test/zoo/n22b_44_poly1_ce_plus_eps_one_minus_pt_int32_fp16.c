/* PolyLoss (Poly-1): CE + epsilon * (1 - pt), per sample, int32 labels, fp16 logits.
 * From the paper's 3-line PyTorch snippet. */
#include <math.h>
#include <stdint.h>

void poly1_ce(int N, int C, float epsilon, const _Float16 logits[N][C], const int32_t labels[N], float loss[N])
{
#pragma fuse kernel(poly1_ce) parallel(n)
	for (int n = 0; n < N; n++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++)
			mx = fmaxf(mx, (float)logits[n][c]);
		float den = 0.0f;
		for (int c = 0; c < C; c++)
			den += expf((float)logits[n][c] - mx);
		const float pt = expf((float)logits[n][labels[n]] - mx) / den;
		const float ce = -logf(pt);
		loss[n] = ce + epsilon * (1.0f - pt);
	}
}
