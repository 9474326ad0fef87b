/* Keys from two sources in two loops per pass, but the second loop scales its scores by a
 * factor the first does not: the loops are not one loop over both sources, and the
 * message says what differs. */
#include <math.h>
void two_differ(int P, int T, const float q[T][64], const float kc[P][64], const float k[T][64], float o[T])
{
#pragma fuse kernel(two_differ) parallel(i)
	for (int i = 0; i < T; i++) {
		float m = -INFINITY;
		for (int j = 0; j < P; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++)
				s += q[i][d] * kc[j][d];
			m = fmaxf(m, s);
		}
		for (int j = 0; j <= i; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++)
				s += q[i][d] * k[j][d];
			m = fmaxf(m, 0.5f * s);
		}
		float l = 0.0f;
		for (int j = 0; j < P; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++)
				s += q[i][d] * kc[j][d];
			l += expf(s - m);
		}
		for (int j = 0; j <= i; j++) {
			float s = 0.0f;
			for (int d = 0; d < 64; d++)
				s += q[i][d] * k[j][d];
			l += expf(0.5f * s - m);
		}
		o[i] = m + logf(l);
	}
}
