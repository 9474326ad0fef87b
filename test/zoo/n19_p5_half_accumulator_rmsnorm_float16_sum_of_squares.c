/* PROBE: a _Float16 accumulator (every partial sum rounded to fp16), as a careless port of a half kernel does;
 * any reordering of the sum changes the result. */
#include <math.h>
void rms_half_acc(int R, int C, float eps, const _Float16 x[R][C], const _Float16 w[C], _Float16 y[R][C])
{
#pragma fuse kernel(rms_half_acc)
	for (int r = 0; r < R; r++) {
		_Float16 acc = (_Float16)0.0f;
		for (int c = 0; c < C; c++) acc += x[r][c] * x[r][c];
		const float inv = 1.0f / sqrtf((float)acc / (float)C + eps);
		for (int c = 0; c < C; c++) y[r][c] = (_Float16)((float)x[r][c] * inv * (float)w[c]);
	}
}
