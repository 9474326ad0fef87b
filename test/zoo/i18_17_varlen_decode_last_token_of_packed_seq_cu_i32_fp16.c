/* Decode inside a packed batch: the query of sequence s is its LAST token, q[cu[s + 1] - 1],
 * keys are all of the sequence's tokens k[cu[s] .. cu[s + 1]); int32 cu_seqlens; fp16, D 64,
 * GQA by h / G. A C port of a speculative-decoding verifier step. */
#include <math.h>
#include <stdint.h>

void packed_last_decode(int S, int TOTAL, int H, int G, const int32_t cu[S + 1], const _Float16 q[TOTAL][H][64],
			const _Float16 k[TOTAL][H / G][64], const _Float16 v[TOTAL][H / G][64], _Float16 o[S][H][64])
{
#pragma fuse kernel(packed_last_decode) parallel(s, h) splitk(j)
	for (int s = 0; s < S; s++)
		for (int h = 0; h < H; h++) {
			const int last = cu[s + 1] - 1;
			float m = -INFINITY, l = 0.0f, acc[64] = {0};
			for (int j = cu[s]; j < cu[s + 1]; j++) {
				float x = 0.0f;
				for (int d = 0; d < 64; d++) x += (float)q[last][h][d] * (float)k[j][h / G][d];
				x *= 0.125f;
				const float mn = fmaxf(m, x), c = expf(m - mn), p = expf(x - mn);
				l = l * c + p;
				for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[j][h / G][d];
				m = mn;
			}
			for (int d = 0; d < 64; d++) o[s][h][d] = (_Float16)(acc[d] / l);
		}
}
