/* HPC style: restrict pointers, long row counter, the inner loops as counted while loops,
 * an additive mask row per sample (0 or -1e4, HF's extended mask) added before the softmax. */
#include <math.h>

void masked_softmax(long R, long C, const float *restrict x, const float *restrict mask,
		    float *restrict y)
{
#pragma fuse kernel(masked_softmax) parallel(r)
	for (long r = 0; r < R; ++r) {
		float m = -INFINITY;
		long c = 0;
		while (c < C) {
			m = fmaxf(m, x[r * C + c] + mask[r * C + c]);
			c++;
		}
		float z = 0.0f;
		c = 0;
		while (c < C) {
			z += expf(x[r * C + c] + mask[r * C + c] - m);
			c++;
		}
		const float inv = 1.0f / z;
		c = 0;
		while (c < C) {
			y[r * C + c] = expf(x[r * C + c] + mask[r * C + c] - m) * inv;
			c++;
		}
	}
}
