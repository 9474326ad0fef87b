/* torch.max(x, dim=-1) returning (values, indices): the first maximum wins (strict >), int32
 * indices (a C caller's choice), bf16 values out as float. */
#include <stdint.h>
#include <math.h>
#include "fusecc.h"

void rowmax_idx(int R, int C, const fusecc_bf16 x[R][C], float val[R], int32_t idx[R])
{
#pragma fuse kernel(rowmax_idx) parallel(r)
	for (int r = 0; r < R; r++) {
		float best = -INFINITY;
		int bi = 0;
		for (int c = 0; c < C; c++) {
			float v = fusecc_bf16_to_float(x[r][c]);
			if (v > best) {
				best = v;
				bi = c;
			}
		}
		val[r] = best;
		idx[r] = bi;
	}
}
