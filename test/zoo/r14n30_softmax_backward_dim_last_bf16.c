/* softmax backward: dx = y * (dy - sum(dy * y)). */
#include <stdint.h>
#include "fusecc.h"
void sm_bwd(int R, int C, const fusecc_bf16 y[R][C], const fusecc_bf16 dy[R][C], fusecc_bf16 dx[R][C])
{
#pragma fuse kernel(sm_bwd) parallel(r)
	for (int r = 0; r < R; r++) {
		float dot = 0;
		for (int c = 0; c < C; c++) dot += fusecc_bf16_to_float(y[r][c]) * fusecc_bf16_to_float(dy[r][c]);
		for (int c = 0; c < C; c++)
			dx[r][c] = fusecc_float_to_bf16(fusecc_bf16_to_float(y[r][c]) * (fusecc_bf16_to_float(dy[r][c]) - dot));
	}
}
