/* Liger's cross-entropy forward (liger_cross_entropy_kernel): the loss per row, and the
 * gradient written in place into the logits tensor, X = (softmax(X) - onehot(y)) / n_non_ignore;
 * an ignored row (y == ignore_index) gets a zero gradient and zero loss. */
#include <math.h>
#include <stdint.h>

void liger_ce_fwd(int n_rows, int n_cols, int ignore_index, float n_non_ignore, float X[n_rows][n_cols],
		const int64_t Y[n_rows], float loss[n_rows])
{
#pragma fuse kernel(liger_ce_fwd) parallel(i)
	for (int i = 0; i < n_rows; i++) {
		const int64_t y = Y[i];
		if (y == ignore_index) {
			for (int c = 0; c < n_cols; c++) X[i][c] = 0.0f;
			loss[i] = 0.0f;
			continue;
		}
		float m = -INFINITY, d = 0.0f;
		for (int c = 0; c < n_cols; c++) {
			const float xc = X[i][c];
			const float mn = fmaxf(m, xc);
			d = d * expf(m - mn) + expf(xc - mn);
			m = mn;
		}
		const float lse = m + logf(d);
		const float ori_X_y = X[i][y];
		for (int c = 0; c < n_cols; c++) X[i][c] = expf(X[i][c] - m) / d / n_non_ignore;
		X[i][y] = X[i][y] - 1.0f / n_non_ignore;
		loss[i] = lse - ori_X_y;
	}
}
