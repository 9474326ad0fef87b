/* Probe: one function-scope scratch row (float work[C], declared before both regions) used by two
 * kernels: a softmax keeps its exponentials in it, then an RMSNorm of another input keeps its
 * squares in it. Per-row data in a buffer shared by all rows: the C is sequential, so fine. */
#include <math.h>

void two_regions(int R, int C, const float x[R][C], const float z[R][C], const float g[C], float p[R][C], float y[R][C])
{
	float work[C];
#pragma fuse kernel(sm_work) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) { work[c] = expf(x[r][c] - m); s += work[c]; }
		for (int c = 0; c < C; c++) p[r][c] = work[c] / s;
	}
#pragma fuse kernel(rms_work) parallel(r)
	for (int r = 0; r < R; r++) {
		float ss = 0.0f;
		for (int c = 0; c < C; c++) { work[c] = z[r][c] * z[r][c]; ss += work[c]; }
		const float inv = 1.0f / sqrtf(ss / C + 1e-6f);
		for (int c = 0; c < C; c++) y[r][c] = z[r][c] * inv * g[c];
	}
}
