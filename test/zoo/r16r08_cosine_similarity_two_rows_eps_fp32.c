/* F.cosine_similarity(a, b, dim=1, eps=1e-8) as a numpy-minded person writes it: dot and both
 * norms in one loop, then dot / max(|a| |b|, eps); fp32, 768-dim sentence embeddings. */
#include <math.h>

void cos_sim(int N, const float a[N][768], const float b[N][768], float out[N])
{
#pragma fuse kernel(cos_sim) parallel(n)
	for (int n = 0; n < N; n++) {
		float dot = 0.0f, na = 0.0f, nb = 0.0f;
		for (int k = 0; k < 768; k++) {
			dot += a[n][k] * b[n][k];
			na += a[n][k] * a[n][k];
			nb += b[n][k] * b[n][k];
		}
		out[n] = dot / fmaxf(sqrtf(na) * sqrtf(nb), 1e-8f);
	}
}
