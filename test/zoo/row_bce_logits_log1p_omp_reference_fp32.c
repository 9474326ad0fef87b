/* row_bce_logits_log1p_omp_reference_fp32.c: binary cross-entropy with logits summed per
 * row (multi-label classification), the numerically stable form torch uses, max(x, 0) -
 * x * y + log1p(exp(-|x|)), from a CPU reference that keeps its OpenMP and unroll
 * pragmas: `#pragma omp parallel for` between `#pragma fuse` and the row loop, `#pragma
 * GCC unroll 4` on the inner loop. Style: fp32 logits and targets, fmaxf, fabsf, log1pf,
 * expf, a mean over the row. */
#include <math.h>

void bce_rows(int R, int C, const float x[R][C], const float target[R][C], float loss[R])
{
#pragma fuse kernel(bce_rows) parallel(r)
#pragma omp parallel for
	for (int r = 0; r < R; r++) {
		float acc = 0.0f;
#pragma GCC unroll 4
		for (int c = 0; c < C; c++) {
			const float v = x[r][c];
			acc += fmaxf(v, 0.0f) - v * target[r][c] + log1pf(expf(-fabsf(v)));
		}
		loss[r] = acc / (float)C;
	}
}
