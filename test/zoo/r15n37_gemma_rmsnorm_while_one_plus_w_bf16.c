/* Gemma RMSNorm (x * (1 + w)), computed in fp32 from bf16, written with while loops by someone
 * coming from Fortran-ish C; hidden 3072. */
#include <math.h>
#include "fusecc.h"

void gemma_rmsnorm(int T, float eps, const fusecc_bf16 x[T][3072], const fusecc_bf16 w[3072],
		   fusecc_bf16 y[T][3072])
{
#pragma fuse kernel(gemma_rmsnorm) parallel(t)
	for (int t = 0; t < T; t++) {
		float acc = 0.0f;
		int c = 0;
		while (c < 3072) {
			const float v = fusecc_bf16_to_float(x[t][c]);
			acc += v * v;
			c++;
		}
		const float inv = 1.0f / sqrtf(acc / 3072.0f + eps);
		int e = 0;
		while (e < 3072) {
			y[t][e] = fusecc_float_to_bf16(fusecc_bf16_to_float(x[t][e]) * inv * (1.0f + fusecc_bf16_to_float(w[e])));
			e++;
		}
	}
}
