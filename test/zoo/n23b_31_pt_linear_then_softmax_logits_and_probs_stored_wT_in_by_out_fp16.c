/* `logits = x @ W + b; probs = logits.softmax(-1)` with W stored [in][out] as a numpy user
 * keeps it (x @ W, not nn.Linear's W.T). Both logits and probs are returned. fp16. */
#include <math.h>

void linear_softmax_wT(int R, int K, int C, const _Float16 x[R][K], const _Float16 W[K][C],
		       const _Float16 b[C], _Float16 logits[R][C], _Float16 probs[R][C])
{
#pragma fuse kernel(linear_softmax_wT) parallel(r)
	for (int r = 0; r < R; r++) {
		for (int c = 0; c < C; c++) {
			float acc = (float)b[c];
			for (int k = 0; k < K; k++)
				acc += (float)x[r][k] * (float)W[k][c];
			logits[r][c] = (_Float16)acc;
		}
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, (float)logits[r][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf((float)logits[r][c] - m);
		for (int c = 0; c < C; c++)
			probs[r][c] = (_Float16)(expf((float)logits[r][c] - m) / z);
	}
}
