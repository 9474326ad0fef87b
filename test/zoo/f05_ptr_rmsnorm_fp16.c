/* RMSNorm over rows of flat fp16 pointers x, y of [R][C] (x[r * C + c]), weight w[C],
 * a helper local for the element, sum of squares divided by C. */
#include <math.h>
/* RMSNorm over rows of a flat [R, C] buffer. */
void rmsnorm(int R, int C, const _Float16 *x, const _Float16 *w, _Float16 *y, float eps)
{
#pragma fuse kernel(rmsnorm) parallel(r)
	for (int r = 0; r < R; r++) {
		float ss = 0.0f;
		for (int c = 0; c < C; c++) {
			float xv = (float)x[r * C + c];
			ss += xv * xv;
		}
		float inv = 1.0f / sqrtf(ss / C + eps);
		for (int c = 0; c < C; c++)
			y[r * C + c] = (_Float16)((float)x[r * C + c] * inv * (float)w[c]);
	}
}
