/* F.normalize(x, p=2, dim=-1, eps=1e-12): x / max(||x||, eps), fp16 rows. */
#include <math.h>

void l2norm(int N, int D, const _Float16 x[N][D], _Float16 y[N][D])
{
	const float eps = 1e-12f;
#pragma fuse kernel(l2norm) parallel(i)
	for (int i = 0; i < N; i++) {
		float ss = 0.0f;
		for (int d = 0; d < D; d++) ss += (float)x[i][d] * (float)x[i][d];
		const float denom = fmaxf(sqrtf(ss), eps);
		for (int d = 0; d < D; d++) y[i][d] = (_Float16)((float)x[i][d] / denom);
	}
}
