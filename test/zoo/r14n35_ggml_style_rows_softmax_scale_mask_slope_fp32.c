/* llama.cpp ggml_soft_max_ext reference style: flat float pointers, a row stride, scale,
 * an optional fp32 mask row times an ALiBi slope, then max, exp and normalise. */
#include <math.h>
void soft_max_ext(int nr, int nc, float scale, float slope, const float *src, const float *mask, float *dst)
{
#pragma fuse kernel(soft_max_ext) parallel(i1)
	for (int i1 = 0; i1 < nr; i1++) {
		const float *sp = src + (long)i1 * nc;
		const float *mp = mask + (long)i1 * nc;
		float *dp = dst + (long)i1 * nc;
		float max = -INFINITY;
		for (int i = 0; i < nc; i++) {
			const float w = sp[i] * scale + slope * mp[i];
			max = fmaxf(max, w);
		}
		float sum = 0.0f;
		for (int i = 0; i < nc; i++) sum += expf(sp[i] * scale + slope * mp[i] - max);
		sum = 1.0f / sum;
		for (int i = 0; i < nc; i++) dp[i] = expf(sp[i] * scale + slope * mp[i] - max) * sum;
	}
}
