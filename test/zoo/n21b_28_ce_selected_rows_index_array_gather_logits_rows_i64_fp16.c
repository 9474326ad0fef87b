/* Loss only on selected positions (masked-LM: the positions of the masked tokens given as
 * an index array), CE over logits[pos[i]] with labels[i]; both int64. */
#include <math.h>
#include <stdint.h>

void mlm_loss(int M, int T, int V, const _Float16 logits[T][V], const int64_t pos[M], const int64_t labels[M],
	      float loss[M])
{
#pragma fuse kernel(mlm_loss) parallel(i)
	for (int i = 0; i < M; i++) {
		const int64_t r = pos[i];
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, (float)logits[r][v]);
		float s = 0.0f;
		for (int v = 0; v < V; v++) s += expf((float)logits[r][v] - m);
		loss[i] = m + logf(s) - (float)logits[r][labels[i]];
	}
}
