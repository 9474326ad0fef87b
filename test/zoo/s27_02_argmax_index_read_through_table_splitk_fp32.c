/* An argmax whose index is read from an array (a token id through a table), split-k: the
 * fuser keeps the position and reads the table there after the pass (argred.c payloads;
 * test/bad until session 27). */
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
