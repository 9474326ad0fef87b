/* row_numpy_logsoftmax_shifted_exp_temp_rows_fp32: numpy transcription of log_softmax: shifted = x - x.max(-1, keepdims=True);
 * out = shifted - log(exp(shifted).sum(-1)), each numpy temporary a local row (shifted[C],
 * ex[C]); flat 1-D arrays with explicit r * C offsets, fp32. */
#include <math.h>

void log_softmax_np(int R, int C, const float *x, float *out)
{
#pragma fuse kernel(log_softmax_np) parallel(r)
	for (int r = 0; r < R; r++) {
		float shifted[C], ex[C];
		float mx = -INFINITY;
		for (int c = 0; c < C; c++)
			mx = fmaxf(mx, x[r * C + c]);
		for (int c = 0; c < C; c++)
			shifted[c] = x[r * C + c] - mx;
		for (int c = 0; c < C; c++)
			ex[c] = expf(shifted[c]);
		float tot = 0.0f;
		for (int c = 0; c < C; c++)
			tot += ex[c];
		const float lse = logf(tot);
		for (int c = 0; c < C; c++)
			out[r * C + c] = shifted[c] - lse;
	}
}
