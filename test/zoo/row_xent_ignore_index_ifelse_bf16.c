/* row_xent_ignore_index_ifelse_bf16.c: F.cross_entropy(logits, target, ignore_index=..., 
 * reduction='none') as a training loop ports it: tokens whose target is the ignore index
 * (padding, prompt) get loss 0 in the if branch; the else branch holds the whole row: the
 * max, the sum of exponentials, and the gathered logit. bf16 logits [T][V], int64 targets
 * read once into a local, the ignore index a run-time int. splitk(v), parallel(t). */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void xent_ignore(int T, int V, int ignore_index, const fusecc_bf16 logits[T][V],
                 const int64_t target[T], float loss[T])
{
#pragma fuse kernel(xent_ignore) parallel(t) splitk(v)
	for (int t = 0; t < T; t++) {
		const int64_t tgt = target[t];
		if (tgt == ignore_index) {
			loss[t] = 0.0f;
		} else {
			float mx = -INFINITY;
			for (int v = 0; v < V; v++)
				mx = fmaxf(mx, fusecc_bf16_to_float(logits[t][v]));
			float se = 0.0f;
			for (int v = 0; v < V; v++)
				se += expf(fusecc_bf16_to_float(logits[t][v]) - mx);
			loss[t] = logf(se) + mx - fusecc_bf16_to_float(logits[t][tgt]);
		}
	}
}
