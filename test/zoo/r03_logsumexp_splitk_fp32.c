/* torch.logsumexp(x, dim=-1) over long rows, fp32: out[i] = max_i + log(sum exp(x - max_i)).
 * Style: ternary max; expf/logf; the output is a 1-D array; splitk(j) because rows are long
 * and few (e.g. a vocabulary-sized row per token). */
#include <math.h>

void logsumexp_rows(int M, int N, const float x[M][N], float out[M])
{
#pragma fuse kernel(logsumexp_rows) parallel(i) splitk(j)
	for (int i = 0; i < M; i++) {
		float mx = -INFINITY;
		for (int j = 0; j < N; j++)
			mx = x[i][j] > mx ? x[i][j] : mx;
		float s = 0.0f;
		for (int j = 0; j < N; j++)
			s += expf(x[i][j] - mx);
		out[i] = mx + logf(s);
	}
}
