/* Margin sampling (active learning): margin = p(top1) - p(top2) of softmax(logits). Written with
 * the classic one-pass top-2 (if x > m1 { m2 = m1; m1 = x; } else if (x > m2) m2 = x;). */
#include <math.h>

void margin(int N, int C, const float logits[N][C], float out[N])
{
#pragma fuse kernel(margin) parallel(n)
	for (int n = 0; n < N; n++) {
		float m1 = -INFINITY, m2 = -INFINITY;
		for (int c = 0; c < C; c++) {
			const float x = logits[n][c];
			if (x > m1) {
				m2 = m1;
				m1 = x;
			} else if (x > m2) {
				m2 = x;
			}
		}
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf(logits[n][c] - m1);
		out[n] = (1.0f - expf(m2 - m1)) / z;
	}
}
