/* PyTorch-eager softmax op by op with a materialised intermediate: shifted = x - x.amax(-1, keepdim=True);
 * e = shifted.exp(); out = e / e.sum(-1, keepdim=True).  `shifted` is a local row (float shifted[C]). fp16 io. */
#include <math.h>
void eager_softmax(int R, int C, const _Float16 x[R][C], _Float16 out[R][C])
{
#pragma fuse kernel(eager_softmax)
	for (int r = 0; r < R; r++) {
		float amax = -INFINITY;
		for (int c = 0; c < C; c++) amax = fmaxf(amax, (float)x[r][c]);
		float shifted[C];
		for (int c = 0; c < C; c++) shifted[c] = (float)x[r][c] - amax;
		float esum = 0.0f;
		for (int c = 0; c < C; c++) esum += expf(shifted[c]);
		for (int c = 0; c < C; c++) out[r][c] = (_Float16)(expf(shifted[c]) / esum);
	}
}
