/* InfoNCE from raw (unnormalised) embeddings, as a self-supervised-learning person writes
 * the loss without materialising the N x N similarity: sim(i, j) = <a_i, b_j> /
 * (|a_i| |b_j|) / tau, loss_i = lse_j sim(i, j) - sim(i, i). The norms of b are recomputed
 * per pair (the naive port). D = 128 projection head. */
#include <math.h>

#define D 128

void infonce_raw(int N, float tau, const _Float16 a[N][D], const _Float16 b[N][D], float loss[N])
{
#pragma fuse kernel(infonce_raw) parallel(i)
	for (int i = 0; i < N; i++) {
		float na = 0.0f;
		for (int d = 0; d < D; d++)
			na += (float)a[i][d] * (float)a[i][d];
		na = sqrtf(na);
		float m = -INFINITY, l = 0.0f, pos = 0.0f;
		for (int j = 0; j < N; j++) {
			float dot = 0.0f, nb = 0.0f;
			for (int d = 0; d < D; d++) {
				dot += (float)a[i][d] * (float)b[j][d];
				nb += (float)b[j][d] * (float)b[j][d];
			}
			float s = dot / (na * sqrtf(nb)) / tau;
			if (j == i)
				pos = s;
			float mn = fmaxf(m, s);
			l = l * expf(m - mn) + expf(s - mn);
			m = mn;
		}
		loss[i] = m + logf(l) - pos;
	}
}
