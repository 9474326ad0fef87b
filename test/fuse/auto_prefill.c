/* No rolling or splitk, causal rows: the rows grow with the reduction, so fusecc picks
 * rolling itself. Also a masked bound (j <= i) and a conditional mask. */
#include <math.h>

void auto_prefill(int N, int W, const float s[N][N], const float v[N][N], float o[N])
{
#pragma fuse kernel(auto_prefill) parallel(i) tile(j:3)
	for (int i = 0; i < N; i++) {
		float m = -INFINITY;
		for (int j = 0; j <= i; j++)
			m = fmaxf(m, j > i - W ? s[i][j] : -INFINITY);
		float l = 0.0f;
		for (int j = 0; j <= i; j++)
			l += expf((j > i - W ? s[i][j] : -INFINITY) - m);
		float acc = 0.0f;
		for (int j = 0; j <= i; j++)
			acc += expf((j > i - W ? s[i][j] : -INFINITY) - m) / l * v[i][j];
		o[i] = acc;
	}
}
