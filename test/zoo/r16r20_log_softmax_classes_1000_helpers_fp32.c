/* ImageNet classifier head: log_softmax over 1000 classes written with numpy-minded helper
 * functions (row_max, row_sumexp) called from the region. */
#include <math.h>

static float row_max(const float *r, int n) { float m = -INFINITY; for (int i = 0; i < n; i++) m = fmaxf(m, r[i]); return m; }
static float row_sumexp(const float *r, int n, float m) { float s = 0.0f; for (int i = 0; i < n; i++) s += expf(r[i] - m); return s; }

void cls_logsm(int N, const float x[N][1000], float y[N][1000])
{
#pragma fuse kernel(cls_logsm) parallel(n)
	for (int n = 0; n < N; n++) {
		const float m = row_max(x[n], 1000);
		const float lz = logf(row_sumexp(x[n], 1000, m));
		for (int c = 0; c < 1000; c++) y[n][c] = x[n][c] - m - lz;
	}
}
