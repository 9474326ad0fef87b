/* Integer-only inference style softmax (TFLite's quantised softmax reference, float
 * inside): int8 logits with a per-tensor input scale, probabilities requantised to uint8
 * with scale 1/256 and zero point 0, clamped to 255. */
#include <math.h>
#include <stdint.h>

void q_softmax(int R, int C, float in_scale, const int8_t x[R][C], uint8_t y[R][C])
{
#pragma fuse kernel(q_softmax) parallel(r)
	for (int r = 0; r < R; r++) {
		int8_t qmax = -128;
		for (int c = 0; c < C; c++)
			if (x[r][c] > qmax)
				qmax = x[r][c];
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += expf(in_scale * (float)(x[r][c] - qmax));
		for (int c = 0; c < C; c++) {
			float p = expf(in_scale * (float)(x[r][c] - qmax)) / s;
			y[r][c] = (uint8_t)fminf(rintf(p * 256.0f), 255.0f);
		}
	}
}
