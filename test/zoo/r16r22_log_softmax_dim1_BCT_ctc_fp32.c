/* CTC prep: log_softmax over the class axis of a [B][C][T] tensor (dim=1, the middle axis), output
 * in the same layout; a speech person's direct loops. */
#include <math.h>

void logsm_dim1(int B, int C, int T, const float x[B][C][T], float y[B][C][T])
{
#pragma fuse kernel(logsm_dim1) parallel(b, t)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++) {
			float m = -INFINITY;
			for (int c = 0; c < C; c++) m = fmaxf(m, x[b][c][t]);
			float s = 0.0f;
			for (int c = 0; c < C; c++) s += expf(x[b][c][t] - m);
			const float lz = m + logf(s);
			for (int c = 0; c < C; c++) y[b][c][t] = x[b][c][t] - lz;
		}
}
