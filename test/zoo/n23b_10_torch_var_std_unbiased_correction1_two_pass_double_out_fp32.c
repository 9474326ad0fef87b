/* torch.var_mean(x, dim=-1, correction=1) and std, a scientific-computing person: two-pass
 * in double for accuracy, outputs mean, var and std per row. */
#include <math.h>

void var_mean_std(int R, int C, const float x[R][C], float mean_out[R], float var_out[R], float std_out[R])
{
#pragma fuse kernel(var_mean_std) parallel(r)
	for (int r = 0; r < R; r++) {
		double s = 0.0;
		for (int c = 0; c < C; c++)
			s += x[r][c];
		const double mu = s / C;
		double ss = 0.0;
		for (int c = 0; c < C; c++)
			ss += (x[r][c] - mu) * (x[r][c] - mu);
		const double var = C > 1 ? ss / (C - 1) : NAN;
		mean_out[r] = (float)mu;
		var_out[r] = (float)var;
		std_out[r] = (float)sqrt(var);
	}
}
