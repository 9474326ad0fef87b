/* row_xent_deref_assert_early_return_fp32.c: per-token cross-entropy with a temperature,
 * as a CPU reference next to a CUDA extension: the sizes asserted and an early return
 * for an empty batch before the loops, an unused flag cast to void, the temperature read
 * through a pointer (`*temperature`, a one-element device buffer), the row read as
 * `*(row + v)` and each loss stored through `*(loss + t)`. Style: fp32, flat pointers, a
 * row pointer local, int64 offsets, parallel(t), no strategy clause. */
#include <assert.h>
#include <math.h>

void xent_temp(int T, int V, int flags, const float *logits, const int *target, const float *temperature, float *loss)
{
	assert(T >= 0 && V > 0);
	(void)flags;
	if (T == 0)
		return;
#pragma fuse kernel(xent_temp) parallel(t)
	for (int t = 0; t < T; t++) {
		assert(target[t] >= 0 && target[t] < V);
		const float *row = logits + (long)t * V;
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, *(row + v) / *temperature);
		float s = 0.0f;
		for (int v = 0; v < V; v++)
			s += expf(row[v] / *temperature - m);
		*(loss + t) = logf(s) + m - row[target[t]] / *temperature;
	}
}
