/* RMSNorm as an HPC programmer writes it: long indices, the sum loop counting down, eps as a
 * double literal, restrict pointers; fp16 in/out, fp16 weight. */
#include <math.h>

void rmsnorm_hpc(long T, long C, const _Float16 *restrict x, const _Float16 *restrict w, _Float16 *restrict y)
{
#pragma fuse kernel(rmsnorm_hpc) parallel(t) rolling(c)
	for (long t = 0; t < T; t++) {
		float ss = 0.0f;
		for (long c = C - 1; c >= 0; c--) ss += (float)x[t * C + c] * (float)x[t * C + c];
		const float rstd = 1.0f / sqrtf(ss / (float)C + 1e-6);
		for (long c = 0; c < C; c++) y[t * C + c] = (_Float16)((float)x[t * C + c] * rstd * (float)w[c]);
	}
}
