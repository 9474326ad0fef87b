/* vLLM fused_add_rms_norm reference written out-of-place: residual_out = x + residual (bf16), then
 * RMSNorm of residual_out with weight; the square sum in double; hidden 5120 (Qwen-14B). */
#include <math.h>
#include "fusecc.h"

void add_rms(int T, float eps, const fusecc_bf16 x[T][5120], const fusecc_bf16 residual[T][5120],
	     const fusecc_bf16 w[5120], fusecc_bf16 residual_out[T][5120], fusecc_bf16 y[T][5120])
{
#pragma fuse kernel(add_rms) parallel(t)
	for (int t = 0; t < T; t++) {
		double ss = 0.0;
		for (int c = 0; c < 5120; c++) {
			fusecc_bf16 h = fusecc_float_to_bf16(fusecc_bf16_to_float(x[t][c]) + fusecc_bf16_to_float(residual[t][c]));
			residual_out[t][c] = h;
			double hv = fusecc_bf16_to_float(h);
			ss += hv * hv;
		}
		const float r = (float)(1.0 / sqrt(ss / 5120.0 + eps));
		for (int c = 0; c < 5120; c++)
			y[t][c] = fusecc_float_to_bf16(fusecc_bf16_to_float(residual_out[t][c]) * r * fusecc_bf16_to_float(w[c]));
	}
}
