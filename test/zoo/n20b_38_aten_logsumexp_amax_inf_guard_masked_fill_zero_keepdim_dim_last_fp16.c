/* ATen's logsumexp (ReduceOps.cpp, logsumexp_out_impl): maxes = amax(self, dim); maxes where
 * |maxes| == inf replaced by 0 (masked_fill_ so that all -inf rows give -inf and not NaN);
 * result = log(sum(exp(self - maxes))) + maxes; fp16 in, fp16 out, float inside. */
#include <math.h>

void logsumexp_lastdim(int R, int C, const _Float16 self[R][C], _Float16 result[R])
{
#pragma fuse kernel(logsumexp_lastdim) parallel(r)
	for (int r = 0; r < R; r++) {
		float maxes = -INFINITY;
		for (int c = 0; c < C; c++) maxes = fmaxf(maxes, (float)self[r][c]);
		if (fabsf(maxes) == INFINITY) maxes = 0.0f;
		float s = 0.0f;
		for (int c = 0; c < C; c++) s += expf((float)self[r][c] - maxes);
		result[r] = (_Float16)(logf(s) + maxes);
	}
}
