/* Label-smoothed cross-entropy over logits[B][T][V] (bf16) with int64 targets, no clause. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void xent_ls(int B, int T, int V, float eps, const fusecc_bf16 logits[B][T][V], const int64_t target[B][T], float loss[B][T])
{
#pragma fuse kernel(xent_ls)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++) {
			float m = -INFINITY;
			for (int v = 0; v < V; v++) m = fmaxf(m, fusecc_bf16_to_float(logits[b][t][v]));
			float s = 0.0f, sx = 0.0f;
			for (int v = 0; v < V; v++) {
				float x = fusecc_bf16_to_float(logits[b][t][v]);
				s += expf(x - m);
				sx += x;
			}
			float lse = m + logf(s);
			float nll = lse - fusecc_bf16_to_float(logits[b][t][target[b][t]]);
			float smooth = lse - sx / (float)V;
			loss[b][t] = (1.0f - eps) * nll + eps * smooth;
		}
}
