/* torch.logsumexp(x, dim=-1) reference: the max seeded from x[r][0], its loop from 1, then the
 * sum over all columns; fp16 in, fp32 out. */
#include <math.h>

void logsumexp_rows(int R, int C, const _Float16 x[R][C], float out[R])
{
#pragma fuse kernel(logsumexp_rows) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = (float)x[r][0];
		for (int c = 1; c < C; c++)
			if ((float)x[r][c] > m) m = (float)x[r][c];
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf((float)x[r][c] - m);
		out[r] = m + logf(s);
	}
}
