/* Decode attention over a cache with per-sequence lengths, the length copied to a local
 * and empty sequences skipped (`const int L = kv_len[b]; if (L <= 0) continue;`), the
 * output of a skipped sequence left as it was; fp16 cache, D = 128, GQA by h / G. */
#include <math.h>

#define D 128

void decode_kvlen(int B, int H, int G, int S, const int kv_len[B], const _Float16 q[B][H][D],
                  const _Float16 k[B][S][H / G][D], const _Float16 v[B][S][H / G][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(decode_kvlen) parallel(b, h) splitk(j: 8)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int L = kv_len[b];
			if (L <= 0)
				continue;
			const int kh = h / G;
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[b][h][d] * (float)k[b][j][kh][d];
				m = fmaxf(m, s * 0.08838834764831845f);
			}
			float l = 0.0f;
			float acc[D] = {0};
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[b][h][d] * (float)k[b][j][kh][d];
				float p = expf(s * 0.08838834764831845f - m);
				l += p;
				for (int d = 0; d < D; d++)
					acc[d] += p * (float)v[b][j][kh][d];
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
