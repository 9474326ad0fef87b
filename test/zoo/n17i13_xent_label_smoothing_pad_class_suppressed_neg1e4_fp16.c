/* Seq2seq (fairseq/Marian style) label-smoothed cross-entropy where the pad class is never
 * predicted: its logit is replaced by -1e4 (fp16-safe "minus infinity") before the softmax;
 * the smoothing term averages log p over all classes. int64 targets, fp16 logits. */
#include <math.h>
#include <stdint.h>

void xent_ls_nopad(int T, int V, int pad_id, float eps, const int64_t target[T], const _Float16 logits[T][V], float loss[T])
{
#pragma fuse kernel(xent_ls_nopad) parallel(t) rolling(c)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		for (int c = 0; c < V; c++) {
			const float x = c == pad_id ? -1e4f : (float)logits[t][c];
			m = fmaxf(m, x);
		}
		float z = 0.0f;
		for (int c = 0; c < V; c++) {
			const float x = c == pad_id ? -1e4f : (float)logits[t][c];
			z += expf(x - m);
		}
		const float lz = logf(z);
		float smooth = 0.0f;
		for (int c = 0; c < V; c++) {
			const float x = c == pad_id ? -1e4f : (float)logits[t][c];
			smooth -= (x - m - lz) / (float)V;
		}
		const float xt = target[t] == pad_id ? -1e4f : (float)logits[t][target[t]];
		loss[t] = (1.0f - eps) * (m + lz - xt) + eps * smooth;
	}
}
