/* Distillation: KL(softmax(t/T) || softmax(s/T)) per row, teacher and student logits. */
#include <math.h>
void kl_rows(int R, int C, float temp, const _Float16 s[R][C], const _Float16 t[R][C], float kl[R])
{
#pragma fuse kernel(kl_rows) parallel(r)
	for (int r = 0; r < R; r++) {
		float ms = -INFINITY, mt = -INFINITY;
		for (int c = 0; c < C; c++) {
			ms = fmaxf(ms, (float)s[r][c] / temp);
			mt = fmaxf(mt, (float)t[r][c] / temp);
		}
		float zs = 0, zt = 0;
		for (int c = 0; c < C; c++) {
			zs += expf((float)s[r][c] / temp - ms);
			zt += expf((float)t[r][c] / temp - mt);
		}
		float acc = 0;
		for (int c = 0; c < C; c++) {
			float lpt = (float)t[r][c] / temp - mt - logf(zt);
			float lps = (float)s[r][c] / temp - ms - logf(zs);
			acc += expf(lpt) * (lpt - lps);
		}
		kl[r] = acc * temp * temp;
	}
}
