/* store_partial_map.c (from test/zoo): softmax(logits / temperature) written into the
 * output during the pass over c, where the max is still partial: refused (it was fused
 * without a repair and gave wrong values). softmax for sampling, fp32.
 * Style: the temperature as a float parameter divided into the exponent, the
 * exponentials written into the output first and summed from there (y[r][c] = e;
 * sum += y[r][c]), then the output normalised in place (y[r][c] /= sum).
 * rolling(c), parallel(r). */
#include <math.h>

void softmax_temperature(int R, int C, float temperature, const float logits[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_temperature) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, logits[r][c]);
		float sum = 0.0f;
		for (int c = 0; c < C; c++) {
			y[r][c] = expf((logits[r][c] - m) / temperature);
			sum += y[r][c];
		}
		for (int c = 0; c < C; c++)
			y[r][c] /= sum;
	}
}
