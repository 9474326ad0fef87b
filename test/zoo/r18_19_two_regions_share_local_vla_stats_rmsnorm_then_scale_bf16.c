/* Two regions sharing a local VLA of per-row statistics (an engineer mirroring two CUDA kernels,
 * "compute rstd" then "apply"): region 1 fills rstd[T], region 2 reads it. bf16. */
#include <math.h>
#include "fusecc.h"

void rmsnorm_two_kernels(int T, int H, const fusecc_bf16 x[T][H], const fusecc_bf16 w[H], fusecc_bf16 y[T][H])
{
	float rstd[T];
#pragma fuse kernel(compute_rstd) parallel(t)
	for (int t = 0; t < T; t++) {
		float ss = 0.0f;
		for (int i = 0; i < H; i++) {
			const float v = fusecc_bf16_to_float(x[t][i]);
			ss += v * v;
		}
		rstd[t] = 1.0f / sqrtf(ss / (float)H + 1e-6f);
	}
#pragma fuse kernel(apply) parallel(t)
	for (int t = 0; t < T; t++)
		for (int i = 0; i < H; i++)
			y[t][i] = fusecc_float_to_bf16(fusecc_bf16_to_float(x[t][i]) * rstd[t] * fusecc_bf16_to_float(w[i]));
}
