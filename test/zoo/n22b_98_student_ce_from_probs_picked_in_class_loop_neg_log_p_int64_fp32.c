/* A student's cross-entropy from the probabilities, the target's term picked inside the class loop
 * (`if (c == y) loss = -log(p)`), as in a from-scratch NumPy-to-C homework. When the target's
 * probability underflows to 0 the C gives +inf, as NumPy does. */
#include <math.h>
#include <stdint.h>

void ce_from_probs(int N, int C, const float x[N][C], const int64_t y[N], float loss[N])
{
#pragma fuse kernel(ce_from_probs) parallel(n)
	for (int n = 0; n < N; n++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++)
			m = fmaxf(m, x[n][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++)
			z += expf(x[n][c] - m);
		float l = 0.0f;
		for (int c = 0; c < C; c++) {
			const float p = expf(x[n][c] - m) / z;
			if (c == y[n])
				l = -logf(p);
		}
		loss[n] = l;
	}
}
