/* flash-attn ops/triton/cross_entropy.py (cross_entropy_fwd_kernel) as a C reference: logits of
 * one tensor-parallel shard (n_cols classes starting at class_start_idx of total_classes),
 * logit_scale, label smoothing over all classes, z-loss lse_square_scale * lse^2, ignore_index;
 * writes losses, z_losses and lse per row. The label may live in another shard. */
#include <math.h>
#include <stdint.h>

void cross_entropy_fwd(int n_rows, int n_cols, int total_classes, int class_start_idx, int ignore_index,
		float logit_scale, float smoothing, float lse_square_scale,
		const _Float16 logits[n_rows][n_cols], const int32_t labels[n_rows],
		float loss[n_rows], float z_loss[n_rows], float lse_out[n_rows])
{
#pragma fuse kernel(cross_entropy_fwd) parallel(row)
	for (int row = 0; row < n_rows; row++) {
		const int label_idx = labels[row];
		float max_logits = -INFINITY;
		for (int c = 0; c < n_cols; c++) max_logits = fmaxf(max_logits, (float)logits[row][c] * logit_scale);
		float sum_exp = 0.0f, sum_logits = 0.0f;
		for (int c = 0; c < n_cols; c++) {
			const float x = (float)logits[row][c] * logit_scale;
			sum_exp += expf(x - max_logits);
			sum_logits += x;
		}
		const float lse = logf(sum_exp) + max_logits;
		lse_out[row] = lse;
		if (label_idx == ignore_index) {
			loss[row] = 0.0f;
			z_loss[row] = 0.0f;
		} else {
			float l = lse;
			if (label_idx >= class_start_idx && label_idx < class_start_idx + n_cols)
				l = lse - (float)logits[row][label_idx - class_start_idx] * logit_scale;
			if (smoothing > 0.0f)
				l = l * (1.0f - smoothing) + smoothing * (lse - sum_logits / (float)total_classes);
			const float z = lse_square_scale * lse * lse;
			loss[row] = l + z;
			z_loss[row] = z;
		}
	}
}
