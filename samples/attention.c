/* attention.c: the fusecc quick start. Global (unmasked) attention prefill,
 * o = softmax(scale * q k^T) v, written as plain loops: the scores of a row go to a
 * buffer, then come the row max, the sum of exponentials, and P.V normalised at the end.
 * fp16 storage, fp32 math, head dim 128; e.g. B = 1, H = 32, N = 256 ... 32768. */
#include <math.h>

#define D 128 /* head dimension */

void attention(int B, int H, int N, float scale,
	       const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
	       const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
	/* One fused GPU kernel: the grid runs over (b, h, blocks of 128 query rows i);
	 * rolling(j) turns the four passes over the keys j into one pass of 64-key steps
	 * that rescales its running max, sum and output as it goes (FlashAttention). */
#pragma fuse kernel(attention) parallel(b, h, i) tile(i:128, j:64)
#pragma fuse rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				/* pass 1: scores s[j] = scale * q[i] . k[j] */
				float s[N];
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = scale * dot;
				}
				/* pass 2: the row max, so that expf never overflows */
				float m = -INFINITY;
				for (int j = 0; j < N; j++)
					m = fmaxf(m, s[j]);
				/* pass 3: the softmax denominator */
				float l = 0.0f;
				for (int j = 0; j < N; j++)
					l += expf(s[j] - m);
				/* pass 4: o[i] = sum_j softmax(s)[j] * v[j], divided by l at the end */
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += expf(s[j] - m) * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
