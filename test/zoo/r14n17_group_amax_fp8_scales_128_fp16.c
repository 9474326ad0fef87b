/* DeepSeek-V3 style per-group (1x128) activation quantisation scales: amax over each group. */
#include <math.h>
void group_amax(int R, int NG, const _Float16 x[R][NG * 128], float scale[R][NG], _Float16 xq[R][NG * 128])
{
#pragma fuse kernel(group_amax) parallel(r, g)
	for (int r = 0; r < R; r++)
		for (int g = 0; g < NG; g++) {
			float amax = 0.0f;
			for (int c = 0; c < 128; c++) amax = fmaxf(amax, fabsf((float)x[r][g * 128 + c]));
			float s = fmaxf(amax, 1e-4f) / 448.0f;
			scale[r][g] = s;
			for (int c = 0; c < 128; c++) xq[r][g * 128 + c] = (_Float16)((float)x[r][g * 128 + c] / s);
		}
}
