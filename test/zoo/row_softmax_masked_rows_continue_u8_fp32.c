/* row_softmax_masked_rows_continue_u8_fp32: a softmax over the rows a byte mask keeps,
 * the others zeroed (`if (!valid[r]) { zeros; continue; }` before the row's loops), as a
 * batched inference loop over padded rows writes it. fp32, no strategy clause. */
#include <math.h>

void masked_rows_softmax(int R, int C, const unsigned char valid[R], const float x[R][C], float y[R][C])
{
#pragma fuse kernel parallel(r)
	for (int r = 0; r < R; r++) {
		if (!valid[r]) {
			for (int c = 0; c < C; c++)
				y[r][c] = 0.0f;
			continue;
		}
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += expf(x[r][c] - m);
		for (int c = 0; c < C; c++)
			y[r][c] = expf(x[r][c] - m) / s;
	}
}
