/* An online softmax that rescales only when the max grows by more than 8 (FA4's stale max):
 * the message says the assignments are under a condition, not on every step. */
#include <math.h>
void stale_max(int N, const float q[N][64], const float k[N][64], const float v[N][64], float o[N][64])
{
#pragma fuse kernel(stale_max) parallel(i)
	for (int i = 0; i < N; i++) {
		float m = -INFINITY, l = 0.0f, acc[64];
		for (int d = 0; d < 64; d++) acc[d] = 0.0f;
		for (int j = 0; j < N; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++) s += q[i][d] * k[j][d];
			if (s > m + 8.0f) {
				const float c = expf(m - s);
				l *= c;
				for (int d = 0; d < 64; d++) acc[d] *= c;
				m = s;
			}
			const float p = expf(s - m);
			l += p;
			for (int d = 0; d < 64; d++) acc[d] += p * v[j][d];
		}
		for (int d = 0; d < 64; d++) o[i][d] = acc[d] / l;
	}
}
