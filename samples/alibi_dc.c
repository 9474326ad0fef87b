/* alibi_dc.c: ALiBi DC (Neptune set), decode with the ALiBi bias slope[h] * (j - i) for
 * the query at position i = L - 1, over a KV cache of length L, 32 / 32 heads.
 * Style: stored scores; max from -FLT_MAX; P normalised before P.V (d outside j).
 * fp16 storage, fp32 math, D = 128; B = 1 ... 32, H = 32, L = 256 ... 32768. */
#include <float.h>
#include <math.h>

#define D 128

void alibi_dc(int B, int H, int L, float scale, const float slope[H],
	      const _Float16 q[B][H][D], const _Float16 k[B][H][L][D],
	      const _Float16 v[B][H][L][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(alibi_dc) parallel(b, h) tile(j:64)
#pragma fuse splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] = scale * dot + slope[h] * (j - (L - 1));
			}
			float m = -FLT_MAX;
			for (int j = 0; j < L; j++)
				m = fmaxf(m, s[j]);
			float l = 0.0f;
			for (int j = 0; j < L; j++)
				l += expf(s[j] - m);
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++)
					acc += expf(s[j] - m) / l * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)acc;
			}
		}
}
