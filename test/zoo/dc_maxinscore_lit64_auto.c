/* dc_maxinscore_lit64_auto.c: decode attention, head dim 64 as a literal, fp16, no strategy
 * clause.
 * Style: the max taken in the score loop as a ternary, initialised with -FLT_MAX, the
 * scores stored, sum, then d-outer P.V normalised after; the scale is applied to the dot
 * before storing. parallel(b, h) only. */
#include <float.h>
#include <math.h>

void decode_d64(int B, int H, int L, float scale,
		const _Float16 q[B][H][64], const _Float16 k[B][H][L][64],
		const _Float16 v[B][H][L][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(decode_d64) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -FLT_MAX;
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < 64; d++)
					dot += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] = scale * dot;
				m = s[j] > m ? s[j] : m;
			}
			float l = 0.0f;
			for (int j = 0; j < L; j++)
				l += expf(s[j] - m);
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++)
					acc += expf(s[j] - m) * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)(acc / l);
			}
		}
}
