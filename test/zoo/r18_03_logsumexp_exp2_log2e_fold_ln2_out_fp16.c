/* torch.logsumexp(x, dim=-1) as a Triton author writes it on CPU: exp2 with log2(e) folded
 * into the inputs, the log taken in base 2 and converted back with ln 2. fp16 in, fp32 out. */
#include <math.h>

#define LOG2E 1.4426950408889634f
#define LN2 0.6931471805599453f

void lse_exp2(int M, int N, const _Float16 x[M][N], float out[M])
{
#pragma fuse kernel(lse_exp2) parallel(m) rolling(n)
	for (int m = 0; m < M; m++) {
		float mx2 = -INFINITY;
		for (int n = 0; n < N; n++) mx2 = fmaxf(mx2, (float)x[m][n] * LOG2E);
		float s = 0.0f;
		for (int n = 0; n < N; n++) s += exp2f((float)x[m][n] * LOG2E - mx2);
		out[m] = (mx2 + log2f(s)) * LN2;
	}
}
