/* Online normaliser (Milakov & Gimelshein 2018) with the branch form: if the element beats the
 * running max, rescale the sum and move the max, else add; then one pass for the outputs. bf16. */
#include <math.h>
#include "fusecc.h"

void online_softmax(int R, int C, const fusecc_bf16 x[R][C], fusecc_bf16 y[R][C])
{
#pragma fuse kernel(online_softmax) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY, d = 0.0f;
		for (int c = 0; c < C; c++) {
			const float v = fusecc_bf16_to_float(x[r][c]);
			if (v > m) {
				d = d * expf(m - v) + 1.0f;
				m = v;
			} else {
				d += expf(v - m);
			}
		}
		const float inv = 1.0f / d;
		for (int c = 0; c < C; c++) y[r][c] = fusecc_float_to_bf16(expf(fusecc_bf16_to_float(x[r][c]) - m) * inv);
	}
}
