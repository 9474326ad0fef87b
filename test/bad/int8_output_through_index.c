/* Per-token int8 quantisation whose codes are scattered through an index (a token's slot
 * in a paged cache): the int8 output is accepted, the store through an index array is
 * refused as it is for a float output (two tokens could name the same row). */
#include <math.h>
#include <stdint.h>

void quant_scatter(int N, int M, const float x[N][64], const int slot[N], int8_t y[M][64], float ys[N])
{
#pragma fuse kernel(quant_scatter) parallel(i)
	for (int i = 0; i < N; i++) {
		float amax = 0.0f;
		for (int d = 0; d < 64; d++)
			amax = fmaxf(amax, fabsf(x[i][d]));
		ys[i] = amax / 127.0f;
		for (int d = 0; d < 64; d++)
			y[slot[i]][d] = (int8_t)roundf(x[i][d] / ys[i]);
	}
}
