/* Gemma RMSNorm (x * rsqrt(mean(x^2) + eps) * (1 + w)), HPC style: row loop counting down,
 * run-time hidden size, const restrict pointers; fp16 in/out, fp32 weight. */
#include <math.h>

void gemma_rms(int T, int C, const _Float16 *restrict x, const float *restrict w, _Float16 *restrict y)
{
#pragma fuse kernel(gemma_rms) parallel(t)
	for (int t = T - 1; t >= 0; t--) {
		float ss = 0.0f;
		for (int c = 0; c < C; c++) ss += (float)x[t * C + c] * (float)x[t * C + c];
		const float r = 1.0f / sqrtf(ss / (float)C + 1e-6f);
		for (int c = 0; c < C; c++) y[t * C + c] = (_Float16)((float)x[t * C + c] * r * (1.0f + w[c]));
	}
}
