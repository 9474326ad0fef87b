/* Textbook KL(P || Q) between softmax(a) and softmax(b) per row: two log-sum-exps, then
 * sum_c p_c (log p_c - log q_c) with p_c = exp(a_c - lseA). */
#include <math.h>

void kl_softmax(int N, int C, const float a[N][C], const float b[N][C], float kl[N])
{
	int i, c;
#pragma fuse kernel(kl_softmax) parallel(i)
	for (i = 0; i < N; i++) {
		float ma = -INFINITY, mb = -INFINITY;
		for (c = 0; c < C; c++) {
			if (a[i][c] > ma) ma = a[i][c];
			if (b[i][c] > mb) mb = b[i][c];
		}
		float sa = 0.0f, sb = 0.0f;
		for (c = 0; c < C; c++) {
			sa += expf(a[i][c] - ma);
			sb += expf(b[i][c] - mb);
		}
		float lsea = ma + logf(sa);
		float lseb = mb + logf(sb);
		float k = 0.0f;
		for (c = 0; c < C; c++) {
			float lp = a[i][c] - lsea;
			float lq = b[i][c] - lseb;
			k += expf(lp) * (lp - lq);
		}
		kl[i] = k;
	}
}
