/* Probe: an online softmax written by hand entirely in double (running max, sum and acc[] are
 * double, exp instead of expf), GQA decode with the group loop inside the parallel clause. */
#include <math.h>

void attn_dbl_online(int B, int KVH, int G, int S, const _Float16 q[B][KVH][G][128],
		     const _Float16 k[B][KVH][S][128], const _Float16 v[B][KVH][S][128], _Float16 o[B][KVH][G][128])
{
	const double scale = 1.0 / sqrt(128.0);
#pragma fuse kernel(attn_dbl_online) parallel(b, kh, g)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++) {
				double m = -INFINITY, l = 0.0, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0;
				for (int j = 0; j < S; j++) {
					double s = 0.0;
					for (int d = 0; d < 128; d++) s += (double)q[b][kh][g][d] * (double)k[b][kh][j][d];
					s *= scale;
					double mn = s > m ? s : m;
					double c = exp(m - mn), p = exp(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (double)v[b][kh][j][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][kh][g][d] = (_Float16)(acc[d] / l);
			}
}
