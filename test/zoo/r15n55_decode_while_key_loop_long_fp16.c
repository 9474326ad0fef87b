/* Decode whose key loops are while loops with a long counter (a C programmer from embedded),
 * per-sequence length, MHA, fp16, D=64, split-k. */
#include <math.h>
#include <stdint.h>

void dec_while(int B, int H, int L, const int64_t len[B], const _Float16 q[B][H][64],
	       const _Float16 k[B][H][L][64], const _Float16 v[B][H][L][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(dec_while) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			long j = 0;
			while (j < len[b]) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				m = fmaxf(m, s * 0.125f);
				j++;
			}
			float l = 0.0f, acc[64];
			for (int d = 0; d < 64; d++) acc[d] = 0.0f;
			j = 0;
			while (j < len[b]) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				const float p = expf(s * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
				j++;
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
