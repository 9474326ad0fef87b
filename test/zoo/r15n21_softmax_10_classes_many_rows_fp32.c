/* MNIST/CIFAR-10 classifier head: softmax over 10 classes for a batch of 65536 rows, written by
 * a numpy user (np.exp(x - x.max(1, keepdims=True)) / sum). */
#include <math.h>

void softmax10(int N, const float logits[N][10], float probs[N][10])
{
#pragma fuse kernel(softmax10) parallel(n)
	for (int n = 0; n < N; n++) {
		float mx = logits[n][0];
		for (int c = 1; c < 10; c++) mx = fmaxf(mx, logits[n][c]);
		float s = 0.0f;
		for (int c = 0; c < 10; c++) s += expf(logits[n][c] - mx);
		for (int c = 0; c < 10; c++) probs[n][c] = expf(logits[n][c] - mx) / s;
	}
}
