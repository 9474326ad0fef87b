/* store_partial_map.c (from test/zoo): softmax(logits / temperature) whose exponentials
 * are kept in an output of their own (e[r][c]) during the pass over c, where the max is
 * still partial, and read back by the normalising loop. Once refused (an early version
 * fused it without a repair and gave wrong values); now the store moves to a loop after
 * the row that computes it again from the final max, the sum reads a local row, and the
 * normalising loop computes the exponential again (stores.c). rolling(c), parallel(r). */
#include <math.h>

void softmax_temperature(int R, int C, float temperature, const float logits[R][C], float e[R][C], float y[R][C])
{
#pragma fuse kernel(softmax_temperature) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, logits[r][c]);
		float sum = 0.0f;
		for (int c = 0; c < C; c++) {
			e[r][c] = expf((logits[r][c] - m) / temperature);
			sum += e[r][c];
		}
		for (int c = 0; c < C; c++)
			y[r][c] = e[r][c] / sum;
	}
}
