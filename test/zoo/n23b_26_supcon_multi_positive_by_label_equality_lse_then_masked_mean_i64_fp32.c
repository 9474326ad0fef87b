/* Supervised contrastive loss (Khosla et al.), per anchor: the denominator is the LSE over
 * all j != i, the positives are the j != i with labels[j] == labels[i], loss_i = -mean over
 * positives of (sim_ij / tau - lse_i). A PyTorch port over a precomputed similarity matrix;
 * an anchor without positives gets 0. */
#include <math.h>
#include <stdint.h>

void supcon_rows(int N, float tau, const float sim[N][N], const int64_t labels[N], float loss[N])
{
#pragma fuse kernel(supcon_rows) parallel(i)
	for (int i = 0; i < N; i++) {
		float m = -INFINITY;
		for (int j = 0; j < N; j++)
			if (j != i)
				m = fmaxf(m, sim[i][j] / tau);
		float z = 0.0f;
		for (int j = 0; j < N; j++)
			if (j != i)
				z += expf(sim[i][j] / tau - m);
		const float lse = m + logf(z);
		float acc = 0.0f;
		int npos = 0;
		for (int j = 0; j < N; j++)
			if (j != i && labels[j] == labels[i]) {
				acc += sim[i][j] / tau - lse;
				npos++;
			}
		loss[i] = npos > 0 ? -acc / npos : 0.0f;
	}
}
