/* Knowledge distillation's soft-target cross-entropy, per row: loss = -sum_c p_teacher[c] *
 * log_softmax(student)[c], the teacher already a probability row (written by a training-loop
 * engineer porting `-(soft_targets * F.log_softmax(student, -1)).sum(-1)`). */
#include <math.h>

void soft_ce(int N, int C, const float student[N][C], const float p_teacher[N][C], float loss[N])
{
#pragma fuse kernel(soft_ce) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, student[n][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf(student[n][c] - m);
		const float logz = logf(z);
		float l = 0.0f;
		for (int c = 0; c < C; c++)
			l -= p_teacher[n][c] * (student[n][c] - m - logz);
		loss[n] = l;
	}
}
