/* row_fp8_amax_scale_flat_fmaxf_fp32: the per-tensor scale of an fp8 (e4m3) cast, as
 * delayed scaling computes it: the absolute maximum of a flattened tensor, then
 * scale = 448 / amax (1 for an all-zero tensor) stored through a pointer.
 * Style: a TransformerEngine-style CPU reference: a flat loop over numel, the running
 * amax in a float started at 0, fmaxf(amax, fabsf(x)). */
#include <math.h>

void fp8_scale(long numel, const float x[numel], float *scale, float *amax_out)
{
	float amax = 0.0f;
#pragma fuse kernel(fp8_amax) parallel(i)
	for (long i = 0; i < numel; i++)
		amax = fmaxf(amax, fabsf(x[i]));
	*amax_out = amax;
	*scale = amax > 0.0f ? 448.0f / amax : 1.0f;
}
