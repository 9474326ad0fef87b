/* s27q_02_ggml_q8_0_rows_of_blocks_fp16_d: ggml's quantize_row_q8_0_reference over a matrix,
 * the block_q8_0 struct split into its two arrays as a GPU port keeps them: each row of K
 * values in blocks of QK8_0 = 32, d = amax / 127 stored as fp16 (GGML_FP32_TO_FP16),
 * id = d ? 1 / d : 0, qs = roundf(x * id) as int8. The codes use the float d, before its
 * rounding to fp16, as ggml does. */
#include <math.h>
#include <stdint.h>
#define QK8_0 32

void quantize_q8_0_rows(int nrows, int nb, const float x[nrows][nb * QK8_0], _Float16 d_out[nrows][nb], int8_t qs[nrows][nb][QK8_0])
{
#pragma fuse kernel(quantize_q8_0_rows) parallel(r, i)
	for (int r = 0; r < nrows; r++)
		for (int i = 0; i < nb; i++) {
			float amax = 0.0f; /* absolute max */
			for (int j = 0; j < QK8_0; j++) {
				const float v = x[r][i * QK8_0 + j];
				amax = fmaxf(amax, fabsf(v));
			}
			const float d = amax / ((1 << 7) - 1);
			const float id = d ? 1.0f / d : 0.0f;
			d_out[r][i] = (_Float16)d;
			for (int j = 0; j < QK8_0; ++j) {
				const float x0 = x[r][i * QK8_0 + j] * id;
				qs[r][i][j] = (int8_t)roundf(x0);
			}
		}
}
