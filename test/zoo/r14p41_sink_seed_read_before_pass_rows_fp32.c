/* probe: gpt-oss sink as the max's and sum's seed, the seed echoed into an output before the pass */
#include <math.h>
void p41(int R, int C, const float sink[R], const float x[R][C], float echo[R], float lse[R])
{
#pragma fuse kernel(p41) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = sink[r];
		float l = 1.0f;
		echo[r] = m + l;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		l = expf(sink[r] - m);
		for (int c = 0; c < C; c++) l += expf(x[r][c] - m);
		lse[r] = m + logf(l);
	}
}
