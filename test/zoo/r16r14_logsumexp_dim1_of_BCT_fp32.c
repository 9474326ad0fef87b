/* torch.logsumexp(x, dim=1) of a [B][C][T] tensor (CTC / audio frames: reduce over the middle axis),
 * ported loop by loop: for every (b, t) a max over c, then the sum; fp32. */
#include <math.h>

void lse_dim1(int B, int C, int T, const float x[B][C][T], float out[B][T])
{
#pragma fuse kernel(lse_dim1) parallel(b, t)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++) {
			float m = -INFINITY;
			for (int c = 0; c < C; c++) m = fmaxf(m, x[b][c][t]);
			float s = 0.0f;
			for (int c = 0; c < C; c++) s += expf(x[b][c][t] - m);
			out[b][t] = m + logf(s);
		}
}
