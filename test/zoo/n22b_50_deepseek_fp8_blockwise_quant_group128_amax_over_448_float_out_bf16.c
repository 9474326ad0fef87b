/* DeepSeek-V3's activation quantisation (act_quant): per token and per 128-wide group,
 * scale = amax / 448 (e4m3 max), y = x / scale kept as float (the fp8 cast is the caller's). */
#include <math.h>
#include "fusecc.h"

#define GS 128

void act_quant(int T, int NG, const fusecc_bf16 x[T][NG][GS], float y[T][NG][GS], float s[T][NG])
{
#pragma fuse kernel(act_quant) parallel(t, g)
	for (int t = 0; t < T; t++)
		for (int g = 0; g < NG; g++) {
			float amax = 1e-4f;
			for (int i = 0; i < GS; i++)
				amax = fmaxf(amax, fabsf(fusecc_bf16_to_float(x[t][g][i])));
			const float scale = amax / 448.0f;
			for (int i = 0; i < GS; i++)
				y[t][g][i] = fusecc_bf16_to_float(x[t][g][i]) / scale;
			s[t][g] = scale;
		}
}
