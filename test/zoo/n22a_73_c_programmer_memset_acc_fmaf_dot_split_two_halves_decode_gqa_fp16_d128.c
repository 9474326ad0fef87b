/* A C programmer's decode: the accumulator cleared with memset, the dot with fmaf, and the dot split
 * over the two 64-wide halves of the head (two loops adding into one scalar); GQA by h / G. */
#include <math.h>
#include <string.h>
#include <stdint.h>

void decode_memset(int B, int H, int G, int T, const int32_t lens[B], const _Float16 q[B][H][128],
		   const _Float16 k[B][H / G][T][128], const _Float16 v[B][H / G][T][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(decode_memset) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float acc[128];
			memset(acc, 0, sizeof(acc));
			float m = -INFINITY, l = 0.0f;
			for (int t = 0; t < lens[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s = fmaf((float)q[b][h][d], (float)k[b][h / G][t][d], s);
				for (int d = 0; d < 64; d++) s = fmaf((float)q[b][h][64 + d], (float)k[b][h / G][t][64 + d], s);
				s *= 0.08838834764831845f;
				const float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++) acc[d] = fmaf(acc[d], c, p * (float)v[b][h / G][t][d]);
				m = mn;
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
