/* row_lse_online_ptr_fp32.c: log-sum-exp of each row with the online normaliser by hand
 * (mn = fmaxf(m, x); s = s * expf(m - mn) + expf(x - mn); m = mn), flat fp32 pointers,
 * no strategy clause. parallel(r). */
#include <math.h>
void lse_online(int R, int C, const float *x, float *lse)
{
#pragma fuse kernel(lse_online) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY, s = 0.0f;
		for (int c = 0; c < C; c++) {
			float xv = x[r * C + c];
			float mn = fmaxf(m, xv);
			s = s * expf(m - mn) + expf(xv - mn);
			m = mn;
		}
		lse[r] = m + logf(s);
	}
}
