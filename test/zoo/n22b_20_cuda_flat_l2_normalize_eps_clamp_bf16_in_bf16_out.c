/* F.normalize(x, p=2, dim=-1, eps=1e-12) host reference by a CUDA programmer: flat bf16
 * pointers, row offset row * D, rnorm = 1 / max(||x||, eps). */
#include <math.h>
#include "fusecc.h"

void l2_normalize(int rows, int D, const fusecc_bf16 *x, fusecc_bf16 *y)
{
	const float eps = 1e-12f;
#pragma fuse kernel(l2_normalize) parallel(row)
	for (int row = 0; row < rows; ++row) {
		float ss = 0.f;
		for (int d = 0; d < D; ++d) {
			float v = fusecc_bf16_to_float(x[row * D + d]);
			ss += v * v;
		}
		float nrm = sqrtf(ss);
		float rn = 1.f / (nrm > eps ? nrm : eps);
		for (int d = 0; d < D; ++d)
			y[row * D + d] = fusecc_float_to_bf16(fusecc_bf16_to_float(x[row * D + d]) * rn);
	}
}
