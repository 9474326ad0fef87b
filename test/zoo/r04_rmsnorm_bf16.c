/* RMSNorm (LLaMA): y = x / sqrt(mean(x^2) + eps) * weight, bf16 activations and weight,
 * #define HIDDEN 4096. Style: token loop named t, feature loop named c; sum of squares,
 * rstd computed as a local; weight broadcast over rows; no strategy clause. */
#include <math.h>
#include "fusecc.h"

#define HIDDEN 4096

void rmsnorm(int T, float eps, const fusecc_bf16 x[T][HIDDEN],
	     const fusecc_bf16 weight[HIDDEN], fusecc_bf16 y[T][HIDDEN])
{
#pragma fuse kernel(rmsnorm) parallel(t)
	for (int t = 0; t < T; t++) {
		float ss = 0.0f;
		for (int c = 0; c < HIDDEN; c++) {
			float xv = fusecc_bf16_to_float(x[t][c]);
			ss += xv * xv;
		}
		const float rstd = 1.0f / sqrtf(ss / (float)HIDDEN + eps);
		for (int c = 0; c < HIDDEN; c++)
			y[t][c] = fusecc_float_to_bf16(fusecc_bf16_to_float(x[t][c]) * rstd *
						       fusecc_bf16_to_float(weight[c]));
	}
}
