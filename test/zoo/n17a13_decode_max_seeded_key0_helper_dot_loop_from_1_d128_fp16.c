/* Decode where the running max is seeded from key 0's score (m = dot(q, k[0]) * scale) and the
 * max loop starts at 1, as people avoid -INFINITY; a numpy-minded dot() helper. D = 128. */
#include <math.h>

static float dot(const _Float16 *a, const _Float16 *b, int n)
{
	float s = 0.0f;
	for (int d = 0; d < n; d++) s += (float)a[d] * (float)b[d];
	return s;
}

void decode_seed0(int B, int H, int L, float scale, const _Float16 q[B][H][128], const _Float16 k[B][H][L][128],
		  const _Float16 v[B][H][L][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(decode_seed0) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = dot(q[b][h], k[b][h][0], 128) * scale;
			for (int j = 1; j < L; j++) m = fmaxf(m, dot(q[b][h], k[b][h][j], 128) * scale);
			float l = 0.0f;
			for (int j = 0; j < L; j++) l += expf(dot(q[b][h], k[b][h][j], 128) * scale - m);
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++) acc += expf(dot(q[b][h], k[b][h][j], 128) * scale - m) * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)(acc / l);
			}
		}
}
