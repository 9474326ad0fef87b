/* Post-LN transformer block tail in C: h = x + attn_out stored (the residual stream), then
 * LayerNorm of h in the same row loop, reading h back from the output; fp16. */
#include <math.h>

void add_ln(int T, int C, float eps, const _Float16 x[T][C], const _Float16 a[T][C], const _Float16 g[C],
	    const _Float16 bb[C], _Float16 h[T][C], _Float16 y[T][C])
{
#pragma fuse kernel(add_ln) parallel(t)
	for (int t = 0; t < T; t++) {
		for (int c = 0; c < C; c++) h[t][c] = (_Float16)((float)x[t][c] + (float)a[t][c]);
		float mean = 0.0f;
		for (int c = 0; c < C; c++) mean += (float)h[t][c];
		mean /= C;
		float var = 0.0f;
		for (int c = 0; c < C; c++) {
			float d = (float)h[t][c] - mean;
			var += d * d;
		}
		var /= C;
		const float rstd = 1.0f / sqrtf(var + eps);
		for (int c = 0; c < C; c++)
			y[t][c] = (_Float16)(((float)h[t][c] - mean) * rstd * (float)g[c] + (float)bb[c]);
	}
}
