/* row_bce_mean_ptr_loss_zero_before_div_after_fp32: multi-label binary cross-entropy with
 * logits (nn.BCEWithLogitsLoss, reduction='mean') over a batch of rows, the loss returned
 * through a float pointer: zeroed before the loop, each row's sum added to it, divided by
 * the element count after the loop.
 * Style: a CUDA-extension author's CPU reference; pointers with explicit offsets, size_t
 * row offsets, the stable max(x, 0) - x*y + log1p(exp(-|x|)) form; no strategy clause. */
#include <math.h>
#include <stddef.h>

void bce_with_logits_mean(int B, int L, const float *logits, const float *targets, float *loss)
{
	*loss = 0.0f;
#pragma fuse kernel(bce_mean) parallel(b)
	for (int b = 0; b < B; b++) {
		const float *x = logits + (size_t)b * L;
		const float *y = targets + (size_t)b * L;
		float row = 0.0f;
		for (int l = 0; l < L; l++)
			row += fmaxf(x[l], 0.0f) - x[l] * y[l] + log1pf(expf(-fabsf(x[l])));
		*loss += row;
	}
	*loss /= (float)B * (float)L;
}
