/* HF's EtaLogitsWarper in C: p = softmax(x), H = entropy, eta = min(eps, sqrt(eps) exp(-H)),
 * tokens with p < eta removed (-inf), the kept log-probs renormalised: the removal's
 * threshold reads the row's entropy, the kept mass sums under it. */
#include <math.h>

void eta_warp(int B, int V, float eps, const float x[B][V], float out[B][V])
{
	const float seps = sqrtf(eps);
#pragma fuse kernel(eta_warp) parallel(b)
	for (int b = 0; b < B; b++) {
		float m = -INFINITY;
		for (int v = 0; v < V; v++) m = fmaxf(m, x[b][v]);
		float z = 0.0f;
		for (int v = 0; v < V; v++) z += expf(x[b][v] - m);
		const float lz = logf(z);
		float h = 0.0f;
		for (int v = 0; v < V; v++) {
			float lp = x[b][v] - m - lz;
			h -= expf(lp) * lp;
		}
		const float eta = fminf(eps, seps * expf(-h));
		float kept = 0.0f;
		for (int v = 0; v < V; v++) {
			float p = expf(x[b][v] - m - lz);
			if (p >= eta) kept += p;
		}
		const float lk = logf(kept);
		for (int v = 0; v < V; v++) {
			float lp = x[b][v] - m - lz;
			out[b][v] = expf(lp) >= eta ? lp - lk : -INFINITY;
		}
	}
}
