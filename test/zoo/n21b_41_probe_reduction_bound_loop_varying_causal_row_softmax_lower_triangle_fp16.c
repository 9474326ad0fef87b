/* Probe: a row reduction whose bound is the row index (the causal softmax of a square score
 * matrix, S given): softmax over j <= i, zeros above. */
#include <math.h>

void causal_softmax(int B, int N, const _Float16 S[B][N][N], _Float16 P[B][N][N])
{
#pragma fuse kernel(causal_softmax) parallel(b, i)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY;
			for (int j = 0; j <= i; j++) m = fmaxf(m, (float)S[b][i][j]);
			float l = 0.0f;
			for (int j = 0; j <= i; j++) l += expf((float)S[b][i][j] - m);
			for (int j = 0; j < N; j++) P[b][i][j] = (_Float16)(j <= i ? expf((float)S[b][i][j] - m) / l : 0.0f);
		}
}
