/* row_lse_fp16.c: torch.logsumexp(x, dim=-1) over fp16 rows, fp32 result.
 * Style: max as a ternary from -INFINITY, then sum of exp, lse = m + logf(sum); rows
 * named r, columns c; rolling(c). */
#include <math.h>

void row_logsumexp(int R, int C, const _Float16 x[R][C], float lse[R])
{
#pragma fuse kernel(row_logsumexp) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) {
			float xv = (float)x[r][c];
			m = xv > m ? xv : m;
		}
		float sum = 0.0f;
		for (int c = 0; c < C; c++)
			sum += expf((float)x[r][c] - m);
		lse[r] = m + logf(sum);
	}
}
