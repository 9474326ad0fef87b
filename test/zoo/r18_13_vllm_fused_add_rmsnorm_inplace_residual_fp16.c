/* vLLM's fused_add_rms_norm: residual += input (kept, rounded to fp16), then input is
 * overwritten with rmsnorm(residual) * weight. Both arrays updated in place. fp16. */
#include <math.h>

void fused_add_rms_norm(int T, int H, float eps, _Float16 input[T][H], _Float16 residual[T][H], const _Float16 weight[H])
{
#pragma fuse kernel(fused_add_rms_norm) parallel(t)
	for (int t = 0; t < T; t++) {
		float variance = 0.0f;
		for (int i = 0; i < H; i++) {
			_Float16 z = (_Float16)((float)input[t][i] + (float)residual[t][i]);
			residual[t][i] = z;
			variance += (float)z * (float)z;
		}
		const float s = 1.0f / sqrtf(variance / (float)H + eps);
		for (int i = 0; i < H; i++) input[t][i] = (_Float16)((float)residual[t][i] * s * (float)weight[i]);
	}
}
