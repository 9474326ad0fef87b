/* causal_dc.c: Causal DC (Neptune set), decode attention: one new query row per head
 * against a KV cache of length L, 32 / 32 heads. The query sits at position L - 1, so
 * the causal mask hides nothing. Style: stored scores s[L]; max, sum of exp, then P.V
 * with d outside j, normalised after. fp16 storage, fp32 math, D = 128;
 * B = 1 ... 32, H = 32, L = 256 ... 32768. */
#include <math.h>

#define D 128

void causal_dc(int B, int H, int L, float scale,
	       const _Float16 q[B][H][D], const _Float16 k[B][H][L][D],
	       const _Float16 v[B][H][L][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(causal_dc) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] = scale * dot;
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
				o[b][h][d] = (_Float16)(acc / l);
			}
		}
}
