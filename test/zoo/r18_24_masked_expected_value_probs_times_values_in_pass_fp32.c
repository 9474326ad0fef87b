/* Expected value under a masked softmax (a distributional RL / ordinal-regression head, or
 * soft-argmax over masked bins): E = sum_c softmax(masked x)_c * bins[c], the probability
 * divided inside the sum; masked bins set to -INFINITY (uint8 mask), no guard: a row with no
 * allowed bin gives NaN as the PyTorch code does. fp32. */
#include <math.h>
#include <stdint.h>

void masked_soft_argmax(int R, int C, const uint8_t allow[R][C], const float x[R][C], const float bins[C], float ev[R])
{
#pragma fuse kernel(masked_soft_argmax) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, allow[r][c] ? x[r][c] : -INFINITY);
		float z = 0.0f;
		for (int c = 0; c < C; c++) z += expf((allow[r][c] ? x[r][c] : -INFINITY) - m);
		float e = 0.0f;
		for (int c = 0; c < C; c++) e += expf((allow[r][c] ? x[r][c] : -INFINITY) - m) / z * bins[c];
		ev[r] = e;
	}
}
