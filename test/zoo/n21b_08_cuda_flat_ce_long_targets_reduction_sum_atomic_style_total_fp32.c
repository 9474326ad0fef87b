/* A CUDA programmer's reference for CE with reduction='sum': flat logits + (size_t)row * V,
 * long targets, negative targets skipped (any ignore value < 0), the sum into *out. */
#include <math.h>
#include <stddef.h>

void ce_sum(int rows, int V, const float *logits, const long *labels, float *out)
{
	*out = 0.0f;
#pragma fuse kernel(ce_sum) parallel(row)
	for (int row = 0; row < rows; ++row) {
		const long y = labels[row];
		if (y < 0) continue;
		const float *x = logits + (size_t)row * V;
		float mx = x[0];
		for (int v = 1; v < V; ++v) mx = fmaxf(mx, x[v]);
		float se = 0.0f;
		for (int v = 0; v < V; ++v) se += expf(x[v] - mx);
		*out += logf(se) + mx - x[y];
	}
}
