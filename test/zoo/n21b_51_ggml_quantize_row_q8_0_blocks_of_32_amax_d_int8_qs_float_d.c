/* ggml's quantize_row_q8_0_reference, the block struct split into arrays: blocks of 32,
 * amax, d = amax / 127, id = d ? 1/d : 0, qs = roundf(x * id) stored as int8. */
#include <math.h>
#include <stdint.h>
#define QK8_0 32

void quantize_q8_0(int nb, const float x[nb * QK8_0], float d_out[nb], int8_t qs[nb][QK8_0])
{
#pragma fuse kernel(quantize_q8_0) parallel(i)
	for (int i = 0; i < nb; i++) {
		float amax = 0.0f;
		for (int j = 0; j < QK8_0; j++) {
			const float v = x[i * QK8_0 + j];
			amax = fmaxf(amax, fabsf(v));
		}
		const float d = amax / ((1 << 7) - 1);
		const float id = d ? 1.0f / d : 0.0f;
		d_out[i] = d;
		for (int j = 0; j < QK8_0; ++j) {
			const float x0 = x[i * QK8_0 + j] * id;
			qs[i][j] = (int8_t)roundf(x0);
		}
	}
}
