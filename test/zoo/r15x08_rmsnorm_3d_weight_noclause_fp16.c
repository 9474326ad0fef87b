/* RMSNorm over x[B][T][C] fp16 with weight, no clause, eps parameter. */
#include <math.h>

void rms3d(int B, int T, int C, float eps, const _Float16 x[B][T][C], const _Float16 w[C], _Float16 y[B][T][C])
{
#pragma fuse kernel(rms3d)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++) {
			float ss = 0.0f;
			for (int c = 0; c < C; c++) ss += (float)x[b][t][c] * (float)x[b][t][c];
			const float r = 1.0f / sqrtf(ss / (float)C + eps);
			for (int c = 0; c < C; c++) y[b][t][c] = (_Float16)((float)x[b][t][c] * r * (float)w[c]);
		}
}
