/* Decode with ALiBi (slopes array, bias slope * (j - pos)), run-time head dim, split-k. */
#include <math.h>

void alibi_decode(int B, int H, int L, int D, float scale, const float slopes[H],
		  const _Float16 q[B][H][D], const _Float16 kc[B][H][L][D],
		  const _Float16 vc[B][H][L][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(alibi_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float w[L];
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float t = 0.0f;
				for (int d = 0; d < D; d++) t += (float)q[b][h][d] * (float)kc[b][h][j][d];
				w[j] = t * scale + slopes[h] * (float)(j - (L - 1));
				m = fmaxf(m, w[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < L; j++) l += expf(w[j] - m);
			for (int d = 0; d < D; d++) {
				float a = 0.0f;
				for (int j = 0; j < L; j++) a += expf(w[j] - m) * (float)vc[b][h][j][d];
				o[b][h][d] = (_Float16)(a / l);
			}
		}
}
