/* log_softmax written by an embedded C programmer: while loops with the counter set just before,
 * row pointers computed from the row index, bf16 in and out. */
#include <math.h>
#include "fusecc.h"

void log_softmax_bf16(int rows, int cols, const fusecc_bf16 *in, fusecc_bf16 *out)
{
#pragma fuse kernel(log_softmax_bf16) parallel(r)
	for (int r = 0; r < rows; r++) {
		const fusecc_bf16 *src = in + r * cols;
		fusecc_bf16 *dst = out + r * cols;
		float maxv = -INFINITY;
		int c = 0;
		while (c < cols) {
			const float v = fusecc_bf16_to_float(src[c]);
			if (v > maxv) maxv = v;
			c++;
		}
		float acc = 0.0f;
		int k = 0;
		while (k < cols) {
			acc += expf(fusecc_bf16_to_float(src[k]) - maxv);
			k += 1;
		}
		const float lse = maxv + logf(acc);
		int w = 0;
		while (w < cols) {
			dst[w] = fusecc_float_to_bf16(fusecc_bf16_to_float(src[w]) - lse);
			w = w + 1;
		}
	}
}
