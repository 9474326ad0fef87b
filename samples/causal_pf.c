/* causal_pf.c: Causal PF (Neptune set), causal prefill attention, 32 / 32 heads.
 * Style: causal mask as a triangular domain (j <= i); scores stored in a row buffer;
 * max, sum of exp, then P.V with d outside j, normalised after P.V.
 * fp16 storage, fp32 math, D = 128; B = 1, H = 32, N = 256 ... 32768. */
#include <math.h>

#define D 128

void causal_pf(int B, int H, int N, float scale,
	       const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
	       const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(causal_pf) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = dot * scale;
				}
				float m = -INFINITY;
				for (int j = 0; j <= i; j++)
					m = fmaxf(m, s[j]);
				float l = 0.0f;
				for (int j = 0; j <= i; j++)
					l += expf(s[j] - m);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++)
						acc += expf(s[j] - m) * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
