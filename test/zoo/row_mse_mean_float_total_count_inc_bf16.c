/* row_mse_mean_float_total_count_inc_bf16: a masked mean-squared error over a batch of
 * predictions, the way a training-loop author writes nn.MSELoss(reduction='mean') over the
 * unmasked rows: a float running total and a counter (`n++`) declared before the loop, one
 * row's squared error summed per iteration, the mean stored after the loop.
 * Style: bf16 predictions and targets, a byte mask of rows, C99, no strategy clause. */
#include <stdint.h>
#include "fusecc.h"

void masked_mse(int R, int C, const fusecc_bf16 pred[R][C], const fusecc_bf16 gold[R][C], const uint8_t keep[R], float out_loss[1])
{
	float total = 0.0f;
	int n = 0;
#pragma fuse kernel(masked_mse) parallel(r)
	for (int r = 0; r < R; r++) {
		if (!keep[r])
			continue;
		float se = 0.0f;
		for (int c = 0; c < C; c++) {
			float d = fusecc_bf16_to_float(pred[r][c]) - fusecc_bf16_to_float(gold[r][c]);
			se += d * d;
		}
		total += se / C;
		n++;
	}
	if (n > 0)
		out_loss[0] = total / n;
	else
		out_loss[0] = 0.0f;
}
