/* vLLM's fused_add_rms_norm: residual += x (stored back in place), then x = rmsnorm(residual) * w;
 * hidden 4096, fp16, eps a parameter. */
#include <math.h>

void fused_add_rms_norm(int T, float eps, _Float16 x[T][4096], _Float16 residual[T][4096],
			const _Float16 weight[4096])
{
#pragma fuse kernel(fused_add_rms_norm) parallel(t)
	for (int t = 0; t < T; t++) {
		float var = 0.0f;
		for (int c = 0; c < 4096; c++) {
			float z = (float)x[t][c] + (float)residual[t][c];
			residual[t][c] = (_Float16)z;
			var += z * z;
		}
		const float inv = 1.0f / sqrtf(var / 4096.0f + eps);
		for (int c = 0; c < 4096; c++)
			x[t][c] = (_Float16)((float)residual[t][c] * inv * (float)weight[c]);
	}
}
