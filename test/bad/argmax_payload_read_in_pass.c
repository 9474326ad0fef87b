/* Gumbel-max sampling whose token id is stored before the softmax's sums: the arm's
 * values would be needed inside the fused pass, so the argmax with payload is refused. */
#include <math.h>
#include <stdint.h>
void g(int B, int V, float temperature, const float logits[B][V], const float gumbel[B][V], int64_t token[B], float val[B])
{
#pragma fuse kernel(g) parallel(b)
	for (int b = 0; b < B; b++) {
		float best = -INFINITY, m = -INFINITY;
		int64_t arg = 0; float pay = 0.0f;
		for (int v = 0; v < V; v++) {
			const float l = logits[b][v] / temperature;
			const float key = l + gumbel[b][v];
			m = fmaxf(m, l);
			if (key > best) {
				best = key;
				arg = v; pay = l;
			}
		}
		token[b] = arg;
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf(logits[b][v] / temperature - m);
		val[b] = pay - m - logf(z);
	}
}
