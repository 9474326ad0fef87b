/* Varlen causal prefill over a packed batch, cu_seqlens int32, written by a student with
 * the probabilities materialised in a local row, the scale inside the dot loop. */
#include <math.h>
#include <stdint.h>

void varlen_causal(int S, int TOT, int H, const int32_t cu[S + 1], const _Float16 q[TOT][H][64],
		   const _Float16 k[TOT][H][64], const _Float16 v[TOT][H][64], _Float16 o[TOT][H][64])
{
#pragma fuse kernel(varlen_causal) parallel(s, h, i)
	for (int s = 0; s < S; s++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < cu[s + 1] - cu[s]; i++) {
				float p[TOT];
				float big = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += (float)q[cu[s] + i][h][d] * (float)k[cu[s] + j][h][d] * 0.125f;
					p[j] = x;
					if (x > big) big = x;
				}
				float tot = 0.0f;
				for (int j = 0; j <= i; j++) {
					p[j] = expf(p[j] - big);
					tot += p[j];
				}
				for (int d = 0; d < 64; d++) {
					float r = 0.0f;
					for (int j = 0; j <= i; j++) r += p[j] / tot * (float)v[cu[s] + j][h][d];
					o[cu[s] + i][h][d] = (_Float16)r;
				}
			}
}
