/* FP8 attention-probabilities path (FA3 fp8 / TransformerEngine): a row softmax whose
 * probabilities are written as fp8 e4m3 with a static scale (p * 448), for an fp8 P.V
 * GEMM. A CUDA programmer's flat pointers with a row stride. */
#include <math.h>
#include "fusecc.h"

void softmax_to_fp8(int rows, int cols, int ld, const _Float16 *s, fusecc_fp8e4m3 *p)
{
#pragma fuse kernel(softmax_to_fp8) parallel(r)
	for (int r = 0; r < rows; r++) {
		float m = -INFINITY;
		for (int c = 0; c < cols; c++)
			m = fmaxf(m, (float)s[r * ld + c]);
		float sum = 0.0f;
		for (int c = 0; c < cols; c++)
			sum += expf((float)s[r * ld + c] - m);
		const float k = 448.0f / sum;
		for (int c = 0; c < cols; c++)
			p[r * ld + c] = fusecc_float_to_fp8e4m3(expf((float)s[r * ld + c] - m) * k);
	}
}
