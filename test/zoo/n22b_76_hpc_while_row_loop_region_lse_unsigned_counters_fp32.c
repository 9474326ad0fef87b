/* HPC style all the way: the rows walked by a counted while loop as well (the region's own loop),
 * unsigned counters, restrict. logsumexp per row. */
#include <math.h>

void lse_rows(unsigned R, unsigned V, const float *restrict x, float *restrict out)
{
	unsigned r = 0;
#pragma fuse kernel(lse_rows) parallel(r)
	while (r < R) {
		float m = -INFINITY;
		for (unsigned v = 0; v < V; ++v)
			m = fmaxf(m, x[r * V + v]);
		float s = 0.0f;
		for (unsigned v = 0; v < V; ++v)
			s += expf(x[r * V + v] - m);
		out[r] = m + logf(s);
		r++;
	}
}
