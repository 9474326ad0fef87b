/* Router logits kept in the GEMM's output layout [E][T] (W_router^T x computed as E rows of T), and
 * the softmax over experts taken down the columns: a C port that never transposed them. */
#include <math.h>

void router_softmax_cols(int E, int T, const float logits[E][T], float probs[E][T])
{
#pragma fuse kernel(router_softmax_cols) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int e = 0; e < E; e++)
			m = fmaxf(m, logits[e][t]);
		float z = 0.0f;
		for (int e = 0; e < E; e++)
			z += expf(logits[e][t] - m);
		for (int e = 0; e < E; e++)
			probs[e][t] = expf(logits[e][t] - m) / z;
	}
}
