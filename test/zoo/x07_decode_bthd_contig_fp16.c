/* Decode attention over a contiguous KV cache laid out token-major, k[b][t][h][d] (the
 * layout of a paged cache's pages, and of most engines' caches), one query row per head:
 * the contiguous twin of samples/paged_decode.c, which reads the same loops through a
 * block table. Style: scores in s[L] with the max in the score loop, P.V with j outside d,
 * fp16 storage, #define D 128, tile(j:64) splitk(j). */
#include <math.h>

#define D 128

void decode_bthd(int B, int H, int L, float scale, const _Float16 q[B][H][D], const _Float16 k[B][L][H][D],
		 const _Float16 v[B][L][H][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(decode_bthd) parallel(b, h) tile(j:64) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += (float)q[b][h][d] * (float)k[b][j][h][d];
				s[j] = dot * scale;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float p = expf(s[j] - m);
				l += p;
				for (int d = 0; d < D; d++)
					acc[d] += p * (float)v[b][j][h][d];
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
