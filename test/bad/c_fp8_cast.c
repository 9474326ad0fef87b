/* An fp8 output written with a C cast of the float: fusecc_fp8e4m3 is a struct (as
 * fusecc_bf16), so C itself refuses the cast; the conversion is fusecc_float_to_fp8e4m3. */
#include <math.h>
#include "fusecc.h"

void fp8_quant(int T, int H, const float x[T][H], fusecc_fp8e4m3 out[T][H], float scales[T])
{
#pragma fuse kernel(fp8_quant) parallel(t)
	for (int t = 0; t < T; t++) {
		float amax = 0.0f;
		for (int h = 0; h < H; h++)
			amax = fmaxf(amax, fabsf(x[t][h]));
		const float s = fmaxf(amax, 1e-12f) / 448.0f;
		scales[t] = s;
		for (int h = 0; h < H; h++)
			out[t][h] = (fusecc_fp8e4m3)(x[t][h] / s);
	}
}
