/* F.cosine_similarity(a, b, dim=-1, eps=1e-8): dot / sqrt(max(|a|^2 * |b|^2, eps^2)), the three
 * sums in one loop (as ATen computes it). */
#include <math.h>

void cosine_sim(int N, int D, const float a[N][D], const float b[N][D], float out[N])
{
	const float eps = 1e-8f;
#pragma fuse kernel(cosine_sim) parallel(n)
	for (int n = 0; n < N; n++) {
		float w12 = 0.0f, w1 = 0.0f, w2 = 0.0f;
		for (int d = 0; d < D; d++) {
			w12 += a[n][d] * b[n][d];
			w1 += a[n][d] * a[n][d];
			w2 += b[n][d] * b[n][d];
		}
		const float n12 = sqrtf(fmaxf(w1 * w2, eps * eps));
		out[n] = w12 / n12;
	}
}
