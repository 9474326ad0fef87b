/* Knowledge distillation loss: KL(softmax(t/T) || softmax(s/T)) * T^2, summed over the vocabulary
 * per row and averaged over rows into one scalar (reduction='batchmean'), fp32, run-time V. */
#include <math.h>

void kd_kl(int R, int V, float T, const float student[R][V], const float teacher[R][V], float *loss)
{
	*loss = 0.0f;
#pragma fuse kernel(kd_kl) parallel(r)
	for (int r = 0; r < R; r++) {
		float ms = -INFINITY, mt = -INFINITY;
		for (int v = 0; v < V; v++) {
			ms = fmaxf(ms, student[r][v] / T);
			mt = fmaxf(mt, teacher[r][v] / T);
		}
		float zs = 0.0f, zt = 0.0f;
		for (int v = 0; v < V; v++) {
			zs += expf(student[r][v] / T - ms);
			zt += expf(teacher[r][v] / T - mt);
		}
		const float lzs = ms + logf(zs), lzt = mt + logf(zt);
		float kl = 0.0f;
		for (int v = 0; v < V; v++) {
			const float lpt = teacher[r][v] / T - lzt;
			const float lps = student[r][v] / T - lzs;
			kl += expf(lpt) * (lpt - lps);
		}
		*loss += kl * T * T / (float)R;
	}
}
