/* Mistral-style sliding window written from the diagonal backwards (the newest key first), scores
 * stored per key at their index; an fp32 query (kept in fp32 by the caller) against fp16 K/V. */
#include <math.h>

void swa_back(int B, int H, int N, int D, int W, const float q[B][H][N][D], const _Float16 k[B][H][N][D],
	      const _Float16 v[B][H][N][D], float o[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(swa_back) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				const int lo = i >= W ? i - W + 1 : 0;
				float m = -INFINITY;
				for (int j = i; j >= lo; j--) {
					float x = 0.0f;
					for (int d = 0; d < D; d++) x += q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = x * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = i; j >= lo; j--) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = i; j >= lo; j--) acc += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = acc / l;
				}
			}
}
