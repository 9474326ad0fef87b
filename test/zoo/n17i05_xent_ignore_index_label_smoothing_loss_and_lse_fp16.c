/* Per-token cross-entropy as F.cross_entropy(reduction='none', ignore_index=-100,
 * label_smoothing=eps) computes it, also returning the LSE for the backward; int64 targets,
 * fp16 logits [T][V]; ignored tokens get loss 0. */
#include <math.h>
#include <stdint.h>

void xent_ls(int T, int V, float eps, const int64_t target[T], const _Float16 logits[T][V], float loss[T], float lse[T])
{
#pragma fuse kernel(xent_ls) parallel(t) rolling(c)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int c = 0; c < V; c++) m = fmaxf(m, (float)logits[t][c]);
		float z = 0.0f, sum_x = 0.0f;
		for (int c = 0; c < V; c++) {
			z += expf((float)logits[t][c] - m);
			sum_x += (float)logits[t][c];
		}
		const float lz = m + logf(z);
		lse[t] = lz;
		if (target[t] == -100) {
			loss[t] = 0.0f;
		} else {
			const float nll = lz - (float)logits[t][target[t]];
			const float smooth = lz - sum_x / (float)V;
			loss[t] = (1.0f - eps) * nll + eps * smooth;
		}
	}
}
