/* Probe: argmax with >= (the last maximum wins, unlike torch) over fp16 logits with many ties
 * (small range), plus the max value. */
#include <math.h>
#include <stdint.h>

void argmax_last(int B, int V, const _Float16 x[B][V], int64_t idx[B], float val[B])
{
#pragma fuse kernel(argmax_last) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int64_t arg = -1;
		for (int v = 0; v < V; v++) {
			if ((float)x[b][v] >= best) { best = (float)x[b][v]; arg = v; }
		}
		idx[b] = arg;
		val[b] = best;
	}
}
