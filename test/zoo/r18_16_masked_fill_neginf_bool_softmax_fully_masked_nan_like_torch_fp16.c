/* scores.masked_fill(~mask, -inf).softmax(-1) ported literally: a bool mask [R][C] (true =
 * keep), masked entries set to -INFINITY, no guard, so a row with no kept entry gives NaN as
 * PyTorch does; probabilities multiplied by inv = 1 / sum in the store loop. fp16. */
#include <math.h>
#include <stdbool.h>

void masked_softmax_torch(int R, int C, const bool mask[R][C], const _Float16 scores[R][C], _Float16 probs[R][C])
{
#pragma fuse kernel(masked_softmax_torch) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) {
			const float s = mask[r][c] ? (float)scores[r][c] : -INFINITY;
			m = fmaxf(m, s);
		}
		float sum = 0.0f;
		for (int c = 0; c < C; c++) {
			const float s = mask[r][c] ? (float)scores[r][c] : -INFINITY;
			sum += expf(s - m);
		}
		const float inv = 1.0f / sum;
		for (int c = 0; c < C; c++) {
			const float s = mask[r][c] ? (float)scores[r][c] : -INFINITY;
			probs[r][c] = (_Float16)(expf(s - m) * inv);
		}
	}
}
