/* row_global_max_of_row_maxima_if_update_fp32: each row's maximum stored, and the largest
 * of them across the rows kept in a scalar updated by `if (m > gmax) gmax = m;` after the
 * row's loop, stored after the region (a logits range check before a softmax).
 * Style: a student's C: the running max by an if, -FLT_MAX as the start, separate row
 * and global maxima. */
#include <float.h>

void row_and_global_max(int N, int C, const float x[N][C], float rmax[N], float *gmax_out)
{
	float gmax = -FLT_MAX;
#pragma fuse kernel(gmax) parallel(i)
	for (int i = 0; i < N; i++) {
		float m = -FLT_MAX;
		for (int c = 0; c < C; c++)
			if (x[i][c] > m)
				m = x[i][c];
		rmax[i] = m;
		if (m > gmax)
			gmax = m;
	}
	*gmax_out = gmax;
}
