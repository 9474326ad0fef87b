/* HF T5LayerNorm ported to C: variance = h.float().pow(2).mean(-1); h = h * rsqrt(var + eps);
 * h cast back to half BEFORE the weight multiply (the model's weight is fp16). */
#include <math.h>

void t5_layernorm(int N, int D, float eps, const _Float16 hidden[N][D], const _Float16 weight[D],
		  _Float16 out[N][D])
{
#pragma fuse kernel(t5_layernorm) parallel(n)
	for (int n = 0; n < N; n++) {
		float variance = 0.0f;
		for (int d = 0; d < D; d++)
			variance += powf((float)hidden[n][d], 2.0f);
		variance /= D;
		const float r = 1.0f / sqrtf(variance + eps);
		for (int d = 0; d < D; d++) {
			_Float16 h = (_Float16)((float)hidden[n][d] * r);
			out[n][d] = (_Float16)((float)weight[d] * (float)h);
		}
	}
}
