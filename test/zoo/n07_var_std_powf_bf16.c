/* n07_var_std_powf_bf16.c: torch.var_mean / torch.std over the last dim with Bessel's
 * correction (divisor C - 1), bf16 in, fp32 mean, var and std out.
 * Style: the centred square written as powf(x - mean, 2.0f), the mean a const local after
 * its sum, the divisor a float computed before the region, no strategy clause. Tabs. */
#include <math.h>
#include "fusecc.h"

void var_std_rows(int R, int C, const fusecc_bf16 x[R][C], float mean_out[R], float var_out[R], float std_out[R])
{
	const float denom = (float)(C - 1);
#pragma fuse kernel(var_std_rows) parallel(r)
	for (int r = 0; r < R; r++) {
		float sum = 0.0f;
		for (int c = 0; c < C; c++)
			sum += fusecc_bf16_to_float(x[r][c]);
		const float mu = sum / C;
		float ssd = 0.0f;
		for (int c = 0; c < C; c++)
			ssd += powf(fusecc_bf16_to_float(x[r][c]) - mu, 2.0f);
		mean_out[r] = mu;
		var_out[r] = ssd / denom;
		std_out[r] = sqrtf(ssd / denom);
	}
}
