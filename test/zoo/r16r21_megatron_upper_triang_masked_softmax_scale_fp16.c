/* Megatron's scaled_upper_triang_masked_softmax reference: scores [attn_batches][N][N] fp16, scaled,
 * keys above the diagonal masked (probability written as 0), softmax in fp32 over the rest. */
#include <math.h>

void triu_softmax(int AB, int N, float scale, const _Float16 x[AB][N][N], _Float16 y[AB][N][N])
{
#pragma fuse kernel(triu_softmax) parallel(a, i)
	for (int a = 0; a < AB; a++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY;
			for (int j = 0; j <= i; j++) m = fmaxf(m, (float)x[a][i][j] * scale);
			float s = 0.0f;
			for (int j = 0; j <= i; j++) s += expf((float)x[a][i][j] * scale - m);
			for (int j = 0; j < N; j++)
				y[a][i][j] = j <= i ? (_Float16)(expf((float)x[a][i][j] * scale - m) / s) : (_Float16)0.0f;
		}
}
