/* HPC style: restrict-qualified flat pointers, OpenMP pragma under the fuse pragma, long
 * indices, the key loop counting down from the diagonal to the window's start (the sum order
 * does not matter to the author), an explicit -FLT_MAX floor. */
#include <float.h>
#include <math.h>

void swa_ref(long nb, long nh, long n, long W, const float *restrict Q, const float *restrict K,
	     const float *restrict V, float *restrict O)
{
	const float sc = 0.125f;
#pragma fuse kernel(swa_ref) parallel(bh, i)
#pragma omp parallel for collapse(2) schedule(static)
	for (long bh = 0; bh < nb * nh; bh++)
		for (long i = 0; i < n; i++) {
			const float *restrict qi = Q + (bh * n + i) * 64;
			const long lo = i - W + 1 > 0 ? i - W + 1 : 0;
			float mx = -FLT_MAX;
			for (long j = i; j >= lo; j--) {
				float s = 0.0f;
				for (long d = 0; d < 64; d++) s += qi[d] * K[(bh * n + j) * 64 + d];
				mx = fmaxf(mx, s * sc);
			}
			float den = 0.0f;
			float acc[64] = {0};
			for (long j = i; j >= lo; j--) {
				float s = 0.0f;
				for (long d = 0; d < 64; d++) s += qi[d] * K[(bh * n + j) * 64 + d];
				const float p = expf(s * sc - mx);
				den += p;
				for (long d = 0; d < 64; d++) acc[d] += p * V[(bh * n + j) * 64 + d];
			}
			for (long d = 0; d < 64; d++) O[(bh * n + i) * 64 + d] = acc[d] / den;
		}
}
