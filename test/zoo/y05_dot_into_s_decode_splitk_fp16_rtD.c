/* y05_dot_into_s_decode_splitk_fp16_rtD.c: decode attention (one query per head) over a
 * KV cache of L positions, the dot product accumulated into the score buffer and
 * scaled in place: s[j] = 0; s[j] += q * k; s[j] *= scale.
 * Style: fp16 storage with (float) casts, run-time `int D`, scale passed in, scores in a
 * local float s[L] per head, max in the score loop, exp stored back, j-outer P.V into
 * acc[D]. splitk(j), parallel(b, h). */
#include <math.h>

void decode_dot_into_s(int B, int H, int L, int D, float scale,
		       const _Float16 q[B][H][D], const _Float16 k[B][H][L][D],
		       const _Float16 v[B][H][L][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(decode_dot_into_s) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				s[j] = 0.0f;
				for (int d = 0; d < D; d++)
					s[j] += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] *= scale;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < L; j++) {
				s[j] = expf(s[j] - m);
				l += s[j];
			}
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < L; j++)
				for (int d = 0; d < D; d++)
					acc[d] += s[j] * (float)v[b][h][j][d];
			for (int d = 0; d < D; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
