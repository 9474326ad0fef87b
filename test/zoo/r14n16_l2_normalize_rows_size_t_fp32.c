/* F.normalize(x, dim=-1) written with size_t everywhere. */
#include <math.h>
#include <stddef.h>
void l2norm(size_t R, size_t C, const float *restrict x, float *restrict y)
{
#pragma fuse kernel(l2norm) parallel(r)
	for (size_t r = 0; r < R; r++) {
		float ss = 0.0f;
		for (size_t c = 0; c < C; c++) ss += x[r * C + c] * x[r * C + c];
		const float inv = 1.0f / fmaxf(sqrtf(ss), 1e-12f);
		for (size_t c = 0; c < C; c++) y[r * C + c] = x[r * C + c] * inv;
	}
}
