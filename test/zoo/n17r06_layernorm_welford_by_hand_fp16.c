/* LayerNorm statistics by Welford's algorithm written by hand (count, mean, M2 updated per
 * element), as numerically careful CPU code does; fp16 in/out. */
#include <math.h>

void layernorm_welford(int N, int C, const _Float16 x[N][C], const _Float16 g[C], const _Float16 bta[C], _Float16 y[N][C])
{
#pragma fuse kernel(layernorm_welford) parallel(n) rolling(c)
	for (int n = 0; n < N; n++) {
		float mean = 0.0f, m2 = 0.0f;
		for (int c = 0; c < C; c++) {
			const float v = (float)x[n][c];
			const float delta = v - mean;
			mean += delta / (float)(c + 1);
			m2 += delta * (v - mean);
		}
		const float rstd = 1.0f / sqrtf(m2 / (float)C + 1e-5f);
		for (int c = 0; c < C; c++) y[n][c] = (_Float16)(((float)x[n][c] - mean) * rstd * (float)g[c] + (float)bta[c]);
	}
}
