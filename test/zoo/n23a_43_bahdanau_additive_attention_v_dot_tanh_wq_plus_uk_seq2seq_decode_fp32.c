/* The PyTorch seq2seq tutorial's BahdanauAttention in C: score_j = Va . tanh(Wa q + Ua k_j),
 * with Wa q and Ua k_j already projected (wq[b][A], uk[b][j][A]); softmax over the source
 * positions; context = sum_j p_j * enc[b][j][:]. Decode: one query per batch row. fp32. */
#include <math.h>

void bahdanau_attn(int B, int S, int A, int E, const float wq[B][A], const float uk[B][S][A], const float va[A],
		   const float enc[B][S][E], float context[B][E], float weights[B][S])
{
#pragma fuse kernel(bahdanau_attn) parallel(b)
	for (int b = 0; b < B; b++) {
		float mx = -INFINITY;
		for (int j = 0; j < S; j++) {
			float sc = 0.0f;
			for (int a = 0; a < A; a++)
				sc += va[a] * tanhf(wq[b][a] + uk[b][j][a]);
			weights[b][j] = sc;
			mx = fmaxf(mx, sc);
		}
		float sum = 0.0f;
		for (int j = 0; j < S; j++) {
			weights[b][j] = expf(weights[b][j] - mx);
			sum += weights[b][j];
		}
		for (int j = 0; j < S; j++)
			weights[b][j] /= sum;
		for (int e = 0; e < E; e++) {
			float c = 0.0f;
			for (int j = 0; j < S; j++)
				c += weights[b][j] * enc[b][j][e];
			context[b][e] = c;
		}
	}
}
