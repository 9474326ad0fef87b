/* Knowledge-distillation loss (Hinton): KL(softmax(t/T) || softmax(s/T)) * T^2 per row, as
 * F.kl_div(F.log_softmax(s/T), F.softmax(t/T), reduction='none').sum(-1) * T*T: two maxes, two sums, then
 * sum_c p_t * (log p_t - log q_s). */
#include <math.h>
void kd_loss(int R, int C, float T, const float student[R][C], const float teacher[R][C], float loss[R])
{
#pragma fuse kernel(kd_loss) parallel(r)
	for (int r = 0; r < R; r++) {
		float ms = -INFINITY, mt = -INFINITY;
		for (int c = 0; c < C; c++) { ms = fmaxf(ms, student[r][c] / T); mt = fmaxf(mt, teacher[r][c] / T); }
		float zs = 0.0f, zt = 0.0f;
		for (int c = 0; c < C; c++) { zs += expf(student[r][c] / T - ms); zt += expf(teacher[r][c] / T - mt); }
		const float lzs = ms + logf(zs), lzt = mt + logf(zt);
		float kl = 0.0f;
		for (int c = 0; c < C; c++) {
			const float lpt = teacher[r][c] / T - lzt;
			const float lqs = student[r][c] / T - lzs;
			kl += expf(lpt) * (lpt - lqs);
		}
		loss[r] = kl * T * T;
	}
}
