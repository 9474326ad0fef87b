/* row_sign_counts_int64_elements_inner_inc: counts of the negative, zero and positive
 * entries of a matrix into three elements of an int64 output, zeroed before the loop
 * and incremented inside the loop over the row's elements (a quantisation calibration's
 * sparsity statistics).
 * Style: a C programmer's if / else if chain with ++ on array elements, int64_t counts. */
#include <stdint.h>

void sign_counts(int R, int C, const float w[R][C], int64_t counts[3])
{
	counts[0] = 0;
	counts[1] = 0;
	counts[2] = 0;
#pragma fuse kernel(sign_counts) parallel(r)
	for (int r = 0; r < R; r++)
		for (int c = 0; c < C; c++) {
			if (w[r][c] < 0.0f)
				counts[0]++;
			else if (w[r][c] == 0.0f)
				counts[1]++;
			else
				counts[2]++;
		}
}
