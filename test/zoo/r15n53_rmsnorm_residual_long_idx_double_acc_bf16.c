/* T5/Llama RMSNorm with the residual add by an HPC person: long loop indices, the mean square
 * accumulated in double, hidden 5120, residual stream output kept in fp32. */
#include <math.h>
#include "fusecc.h"

void add_rmsnorm(long T, float eps, const fusecc_bf16 x[T][5120], float resid[T][5120],
		 const fusecc_bf16 w[5120], fusecc_bf16 y[T][5120])
{
#pragma fuse kernel(add_rmsnorm) parallel(t)
	for (long t = 0; t < T; t++) {
		double ms = 0.0;
		for (long c = 0; c < 5120; c++) {
			resid[t][c] += fusecc_bf16_to_float(x[t][c]);
			ms += (double)resid[t][c] * (double)resid[t][c];
		}
		const float r = (float)(1.0 / sqrt(ms / 5120.0 + (double)eps));
		for (long c = 0; c < 5120; c++)
			y[t][c] = fusecc_float_to_bf16(resid[t][c] * r * fusecc_bf16_to_float(w[c]));
	}
}
