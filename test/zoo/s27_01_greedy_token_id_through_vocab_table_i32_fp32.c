/* Greedy pick whose token id comes through a table (a vocabulary remap after pruning): the
 * argmax arm sets the id from ids[v], not from v (session 27: an argmax payload). */
#include <math.h>
#include <stdint.h>
void pick(int B, int V, const float logits[B][V], const int32_t ids[V], int32_t out[B], float best_out[B])
{
#pragma fuse kernel(pick) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY;
		int32_t id = -1;
		for (int v = 0; v < V; v++)
			if (logits[b][v] > best) { best = logits[b][v]; id = ids[v]; }
		out[b] = id;
		best_out[b] = best;
	}
}
