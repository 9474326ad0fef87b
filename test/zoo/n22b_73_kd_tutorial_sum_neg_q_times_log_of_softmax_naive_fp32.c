/* The knowledge-distillation tutorial's soft-target loss, written naively as in many blog posts:
 * torch.sum(-soft_targets * torch.log(torch.softmax(student_logits, -1)), -1), per sample. Where a
 * student probability underflows to 0 the log is -inf and C (like PyTorch) gives inf or NaN. */
#include <math.h>

void kd_naive(int N, int C, const float student[N][C], const float soft_targets[N][C], float loss[N])
{
#pragma fuse kernel(kd_naive) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, student[n][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf(student[n][c] - m);
		float l = 0.0f;
		for (int c = 0; c < C; c++)
			l += -soft_targets[n][c] * logf(expf(student[n][c] - m) / z);
		loss[n] = l;
	}
}
