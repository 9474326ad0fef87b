/* row_softmax_textbook_exp_buffer_fp16: softmax over the last dim as a textbook writes it:
 * the row's max, then the exponentials into a buffer, then their sum, then each one
 * divided by the sum; three loops after the max, a run-time row length.
 * Style: fp16 in and out, a C99 variable-length buffer `float e[n]`, plain `if` for the max,
 * rolling over the columns asked for. */
#include <math.h>

void softmax_rows(int rows, int n, const _Float16 in[rows][n], _Float16 out[rows][n])
{
#pragma fuse kernel(softmax_rows) parallel(r) rolling(c)
	for (int r = 0; r < rows; r++) {
		float mx = (float)in[r][0];
		for (int c = 1; c < n; c++)
			if ((float)in[r][c] > mx)
				mx = (float)in[r][c];
		float e[n];
		for (int c = 0; c < n; c++)
			e[c] = expf((float)in[r][c] - mx);
		float sum = 0.0f;
		for (int c = 0; c < n; c++)
			sum += e[c];
		for (int c = 0; c < n; c++)
			out[r][c] = (_Float16)(e[c] / sum);
	}
}
