/* torchao's float8 row-wise scaling (Float8Linear's rowwise recipe) for activations:
 * amax per row clamped to a floor of 1e-12, scale = 448 / amax, codes in fp8 e4m3, the
 * inverse scale stored for the GEMM's epilogue. bf16 input. */
#include <math.h>
#include "fusecc.h"

void float8_rowwise(int M, int K, const fusecc_bf16 x[M][K], fusecc_fp8e4m3 xq[M][K], float scale_inv[M])
{
#pragma fuse kernel(float8_rowwise) parallel(m)
	for (int m = 0; m < M; m++) {
		float amax = 0.0f;
		for (int k = 0; k < K; k++) {
			float a = fabsf(fusecc_bf16_to_float(x[m][k]));
			if (a > amax)
				amax = a;
		}
		amax = fmaxf(amax, 1e-12f);
		const float scale = 448.0f / amax;
		for (int k = 0; k < K; k++) {
			float v = fusecc_bf16_to_float(x[m][k]) * scale;
			v = fminf(fmaxf(v, -448.0f), 448.0f);
			xq[m][k] = fusecc_float_to_fp8e4m3(v);
		}
		scale_inv[m] = 1.0f / scale;
	}
}
