/* alibi_pf.c: ALiBi PF (Neptune set), causal prefill with the linear bias
 * slope[h] * (j - i) added to the score, 32 / 32 heads.
 * Style: full j range with the causal mask as a ternary; stored scores; max written as
 * m > x ? m : x from -FLT_MAX; P.V with j outside d into acc[D], normalised after.
 * fp16 storage, fp32 math, D = 128; B = 1, H = 32, N = 256 ... 32768. */
#include <float.h>
#include <math.h>

#define D 128

void alibi_pf(int B, int H, int N, float scale, const float slope[H],
	      const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
	      const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(alibi_pf) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float x = scale * dot + slope[h] * (j - i);
					s[j] = j <= i ? x : -INFINITY;
				}
				float m = -FLT_MAX;
				for (int j = 0; j < N; j++)
					m = m > s[j] ? m : s[j];
				float l = 0.0f;
				for (int j = 0; j < N; j++)
					l += expf(s[j] - m);
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float p = expf(s[j] - m);
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
