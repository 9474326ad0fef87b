/* dc_q1_rtD_splitk_fp16.c: decode attention with the query kept in PyTorch's decode shape
 * (B, H, 1, D): one new token against a KV cache of length L.
 * Style: fp16, run-time `int D`, q[b][h][0][d] and o[b][h][0][d] with a literal 0 index,
 * scale as a parameter, stored scores s[L], max / sum / d-outer P.V normalised after.
 * parallel(b, h), splitk(j) with automatic chunk count. */
#include <math.h>

void decode_q1(int B, int H, int L, int D, float scale,
	       const _Float16 q[B][H][1][D], const _Float16 k[B][H][L][D],
	       const _Float16 v[B][H][L][D], _Float16 o[B][H][1][D])
{
#pragma fuse kernel(decode_q1) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += (float)q[b][h][0][d] * (float)k[b][h][j][d];
				s[j] = dot * scale;
			}
			float m = -INFINITY;
			for (int j = 0; j < L; j++)
				m = fmaxf(m, s[j]);
			float l = 0.0f;
			for (int j = 0; j < L; j++)
				l += expf(s[j] - m);
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++)
					acc += expf(s[j] - m) * (float)v[b][h][j][d];
				o[b][h][0][d] = (_Float16)(acc / l);
			}
		}
}
