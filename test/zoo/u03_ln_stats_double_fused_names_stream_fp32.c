/* u03: LayerNorm statistics one-pass in double (E[v^2] - E[v]^2, written in double so that
 * un-centred activations survive the cancellation), split-k over the row, fp32 x[rows][cols].
 * Style: the accumulators double, an offset `shift` added to every element (features far
 * from zero: a float sum would lose the variance); sizes `rows`, `cols`, eps named `stream`,
 * the outputs `kernel` and `choice`: names of the launcher's own. */
#include <math.h>

void ln_stats_f64(int rows, int cols, float shift, float stream, const float x[rows][cols], float kernel[rows], float choice[rows])
{
#pragma fuse kernel(ln_stats_f64) parallel(r) splitk(c)
	for (int r = 0; r < rows; r++) {
		double s1 = 0.0, s2 = 0.0;
		for (int c = 0; c < cols; c++) {
			double v = (double)x[r][c] + shift;
			s1 += v;
			s2 += v * v;
		}
		double mu = s1 / cols;
		double var = s2 / cols - mu * mu;
		kernel[r] = (float)(mu - shift);
		choice[r] = (float)(1.0 / sqrt(var + stream));
	}
}
