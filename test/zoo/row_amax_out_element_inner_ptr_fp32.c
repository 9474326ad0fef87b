/* row_amax_out_element_inner_ptr_fp32: the absolute maximum of an activation matrix
 * written straight into an output element: `*amax = 0;` before the loop,
 * `*amax = fmaxf(*amax, fabsf(...))` over each row's elements, nothing after.
 * Style: a CUDA-extension author's CPU reference: pointer parameters with explicit
 * offsets, the output pointer as the accumulator. */
#include <math.h>
#include <stddef.h>

void act_amax(int T, int H, const float *act, float *amax)
{
	*amax = 0.0f;
#pragma fuse kernel(act_amax) parallel(t)
	for (int t = 0; t < T; t++) {
		const float *row = act + (size_t)t * H;
		for (int h = 0; h < H; h++)
			*amax = fmaxf(*amax, fabsf(row[h]));
	}
}
