/* xent_index.c: cross-entropy with class indices, the form every framework uses
 * (torch.nn.functional.cross_entropy(logits, target, reduction='none')): the loss of
 * token t is logsumexp(logits[t]) - logits[t][target[t]]. No one-hot matrix is read. A
 * target out of [0, V) is the caller's contract. Style: max, then sum of exponentials,
 * fused by fusecc into one pass (online softmax). bf16 logits, fp32 math;
 * T = 4096 ... 32768, V = 32000 ... 128256. */
#include <math.h>

#include "fusecc.h"

void xent_index(int T, int V, const fusecc_bf16 logits[T][V], const int target[T], float loss[T])
{
#pragma fuse kernel(xent_index) parallel(t) rolling(v)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++)
			m = fmaxf(m, fusecc_bf16_to_float(logits[t][v]));
		float z = 0.0f;
		for (int v = 0; v < V; v++)
			z += expf(fusecc_bf16_to_float(logits[t][v]) - m);
		loss[t] = logf(z) + m - fusecc_bf16_to_float(logits[t][target[t]]);
	}
}
