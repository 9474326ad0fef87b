/* Single-pass entropy of softmax(x) by hand (one read of a 128K-vocab row): keep m, z =
 * sum e^(x - m) and w = sum x e^(x - m), rescaling both when m grows; H = m + log z - w / z.
 * A performance engineer's C, fp16 logits. */
#include <math.h>

void online_entropy(int R, int V, const _Float16 x[R][V], float H[R])
{
#pragma fuse kernel(online_entropy) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY, z = 0.0f, w = 0.0f;
		for (int v = 0; v < V; v++) {
			const float xv = (float)x[r][v];
			const float m_new = fmaxf(m, xv);
			const float c = expf(m - m_new);
			const float e = expf(xv - m_new);
			z = z * c + e;
			w = w * c + xv * e;
			m = m_new;
		}
		H[r] = m + logf(z) - w / z;
	}
}
