/* A row function whose K and V parameters are 2-D slices (`const _Float16 K[n][128]`), called
 * with k[b][h] and v[b][h] from the region: how C programmers pass a head's matrix. */
#include <math.h>

static void attend_row2(int n, int last, const _Float16 qrow[128], const _Float16 K[n][128], const _Float16 V[n][128],
			_Float16 orow[128])
{
	float s[n];
	float m = -INFINITY;
	for (int j = 0; j <= last; j++) {
		float x = 0.0f;
		for (int d = 0; d < 128; d++) x += (float)qrow[d] * (float)K[j][d];
		s[j] = x * 0.08838834764831845f;
		m = fmaxf(m, s[j]);
	}
	float l = 0.0f;
	for (int j = 0; j <= last; j++) { s[j] = expf(s[j] - m); l += s[j]; }
	for (int d = 0; d < 128; d++) {
		float a = 0.0f;
		for (int j = 0; j <= last; j++) a += s[j] * (float)V[j][d];
		orow[d] = (_Float16)(a / l);
	}
}

void causal_slices(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		   const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(causal_slices) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++)
				attend_row2(N, i, q[b][h][i], k[b][h], v[b][h], o[b][h][i]);
}
