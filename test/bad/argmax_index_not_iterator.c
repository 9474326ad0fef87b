/* An argmax whose index is read from an array: the fuser keeps the position and cannot
 * compute the index again from it after the pass. */
#include <math.h>
void f(int B, int V, const float x[B][V], const int tok[V], int out[B])
{
#pragma fuse kernel(f) parallel(b) splitk(v)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int idx = 0;
		for (int v = 0; v < V; v++)
			if (x[b][v] > best) {
				best = x[b][v];
				idx = tok[v];
			}
		out[b] = idx;
	}
}
