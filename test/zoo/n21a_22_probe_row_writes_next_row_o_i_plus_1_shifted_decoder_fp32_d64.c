/* Probe: the result for query i is written to row i + 1 (a shifted-output habit: position 0 is left
 * to the caller); the last query's result is dropped. Each row is still written once. */
#include <math.h>

void attn_shift(int B, int N, const float q[B][N][64], const float k[B][N][64], const float v[B][N][64],
		float o[B][N][64])
{
#pragma fuse kernel(attn_shift) parallel(b, i)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N - 1; i++) {
			float sc[N], mx = -INFINITY;
			for (int j = 0; j <= i; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][i][d] * k[b][j][d];
				sc[j] = s * 0.125f;
				mx = fmaxf(mx, sc[j]);
			}
			float l = 0.0f;
			for (int j = 0; j <= i; j++) l += expf(sc[j] - mx);
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j <= i; j++) acc += expf(sc[j] - mx) * v[b][j][d];
				o[b][i + 1][d] = acc / l;
			}
		}
}
