/* two_source_prefill.c: chunked prefill with its keys from two sources, written as two
 * loops per pass (the cache's P keys, then the chunk's own keys causally). The fuser reads
 * each pair as one loop over P + i + 1 keys, the source a pick by key position (`j < P ?
 * kc[..][j][d] : k[..][j - P][d]`), and the tiles load each key row from its source. fp16,
 * D = 64. */
#include <math.h>

void two_source_prefill(int H, int P, int T, const _Float16 q[H][T][64], const _Float16 kc[H][P][64],
			const _Float16 vc[H][P][64], const _Float16 k[H][T][64], const _Float16 v[H][T][64],
			_Float16 o[H][T][64])
{
#pragma fuse kernel parallel(h, i) rolling(j)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < T; i++) {
			float m = -INFINITY;
			for (int j = 0; j < P; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += (float)q[h][i][d] * (float)kc[h][j][d];
				m = fmaxf(m, s * 0.125f);
			}
			for (int j = 0; j <= i; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += (float)q[h][i][d] * (float)k[h][j][d];
				m = fmaxf(m, s * 0.125f);
			}
			float l = 0.0f, acc[64];
			for (int d = 0; d < 64; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < P; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += (float)q[h][i][d] * (float)kc[h][j][d];
				float p = expf(s * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++)
					acc[d] += p * (float)vc[h][j][d];
			}
			for (int j = 0; j <= i; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += (float)q[h][i][d] * (float)k[h][j][d];
				float p = expf(s * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++)
					acc[d] += p * (float)v[h][j][d];
			}
			for (int d = 0; d < 64; d++)
				o[h][i][d] = (_Float16)(acc[d] / l);
		}
}
