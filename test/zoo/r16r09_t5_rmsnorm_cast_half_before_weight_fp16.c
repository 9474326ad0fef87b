/* T5LayerNorm / HF LlamaRMSNorm port: variance in fp32, the normalised value cast back to fp16
 * BEFORE the weight multiply (hidden_states.to(input_dtype) * weight); hidden 4096. */
#include <math.h>

void t5_rms(int T, float eps, const _Float16 x[T][4096], const _Float16 w[4096], _Float16 y[T][4096])
{
#pragma fuse kernel(t5_rms) parallel(t)
	for (int t = 0; t < T; t++) {
		float var = 0.0f;
		for (int c = 0; c < 4096; c++) var += (float)x[t][c] * (float)x[t][c];
		var /= 4096.0f;
		const float r = 1.0f / sqrtf(var + eps);
		for (int c = 0; c < 4096; c++) y[t][c] = w[c] * (_Float16)((float)x[t][c] * r);
	}
}
