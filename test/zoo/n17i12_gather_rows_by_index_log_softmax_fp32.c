/* Log-softmax of rows picked by an index list (the selected positions of a batch, as in
 * speculative decoding's verify step): x[sel[r]][c], int64 indices, fp32. */
#include <math.h>
#include <stdint.h>

void gather_log_softmax(int R, int T, int V, const int64_t sel[R], const float x[T][V], float y[R][V])
{
#pragma fuse kernel(gather_log_softmax) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		const int64_t t = sel[r];
		float m = -INFINITY;
		for (int c = 0; c < V; c++) m = fmaxf(m, x[t][c]);
		float s = 0.0f;
		for (int c = 0; c < V; c++) s += expf(x[t][c] - m);
		const float lz = logf(s) + m;
		for (int c = 0; c < V; c++) y[r][c] = x[t][c] - lz;
	}
}
