/* The region calls a row-wise function, one query row at a time, with pointers to that row and to
 * the head's K and V (the way a C library splits "attend one row" out of the batch loop). */
#include <math.h>

static void attend_row(int n_keys, int last, const _Float16 *qrow, const _Float16 *K, const _Float16 *V,
		       _Float16 *orow, float scale)
{
	float m = -INFINITY, l = 0.0f, acc[128];
	for (int d = 0; d < 128; d++) acc[d] = 0.0f;
	for (int j = 0; j < n_keys; j++) {
		if (j > last) continue;
		float s = 0.0f;
		for (int d = 0; d < 128; d++) s += (float)qrow[d] * (float)K[j * 128 + d];
		s *= scale;
		const float mn = s > m ? s : m;
		const float c = expf(m - mn), p = expf(s - mn);
		l = l * c + p;
		for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)V[j * 128 + d];
		m = mn;
	}
	for (int d = 0; d < 128; d++) orow[d] = (_Float16)(acc[d] / l);
}

void causal_rows(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		 const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(causal_rows) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++)
				attend_row(N, i, q[b][h][i], &k[b][h][0][0], &v[b][h][0][0], o[b][h][i], scale);
}
