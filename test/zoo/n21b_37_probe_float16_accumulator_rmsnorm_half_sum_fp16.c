/* Probe: a _Float16 accumulator (a port that keeps everything in half): the sum of squares
 * rounds to fp16 at every step, as C does; the fused C must keep that rounding. */
#include <math.h>

void rms_half(int T, int C, const _Float16 x[T][C], const _Float16 w[C], _Float16 y[T][C])
{
#pragma fuse kernel(rms_half) parallel(t)
	for (int t = 0; t < T; t++) {
		_Float16 acc = 0;
		for (int c = 0; c < C; c++) acc += x[t][c] * x[t][c];
		const float r = 1.0f / sqrtf((float)acc / C + 1e-5f);
		for (int c = 0; c < C; c++) y[t][c] = (_Float16)((float)x[t][c] * r * (float)w[c]);
	}
}
