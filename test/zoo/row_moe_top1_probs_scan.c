/* row_moe_top1_probs_scan: a top-1 router that normalises first and picks second: the
 * softmax's probabilities are computed and stored in a last loop, which also scans them
 * for the largest (first one on ties), kept as a float index in a float output.
 * Style: the argmax of a value that reads the softmax's results, after the sums; a
 * probability local; no strategy clause. */
#include <math.h>
#include "fusecc.h"

void router_top1_scan(int T, int E, const fusecc_bf16 logits[T][E], float probs[T][E], float gate[T], float expert[T])
{
#pragma fuse kernel(router_top1_scan) parallel(t)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int e = 0; e < E; e++)
			m = fmaxf(m, fusecc_bf16_to_float(logits[t][e]));
		float s = 0.0f;
		for (int e = 0; e < E; e++)
			s += expf(fusecc_bf16_to_float(logits[t][e]) - m);
		float top = -1.0f;
		float top_e = 0.0f;
		for (int e = 0; e < E; e++) {
			float p = expf(fusecc_bf16_to_float(logits[t][e]) - m) / s;
			probs[t][e] = p;
			if (p > top) {
				top = p;
				top_e = (float)e;
			}
		}
		gate[t] = top;
		expert[t] = top_e;
	}
}
