/* row_online_softmax_vocab_fp16.c: softmax over a long vocabulary row of fp16 logits,
 * written by someone who already knows the online-softmax trick (Milakov & Gimelshein):
 * one loop keeps the running max and rescales the running denominator by hand, then a
 * second loop writes the probabilities (fp16).
 * Style: m_new local, d = d * expf(m - m_new) + expf(x - m_new), m = m_new;
 * parallel(t) splitk(c). */
#include <math.h>

void vocab_softmax(int T, int V, const _Float16 logits[T][V], _Float16 probs[T][V])
{
#pragma fuse kernel(vocab_softmax) parallel(t) splitk(c)
	for (int t = 0; t < T; t++) {
		float m = -INFINITY;
		float d = 0.0f;
		for (int c = 0; c < V; c++) {
			float x = (float)logits[t][c];
			float m_new = fmaxf(m, x);
			d = d * expf(m - m_new) + expf(x - m_new);
			m = m_new;
		}
		for (int c = 0; c < V; c++)
			probs[t][c] = (_Float16)(expf((float)logits[t][c] - m) / d);
	}
}
