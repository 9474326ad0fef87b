/* Attention with a dense additive float mask shared across batch and heads (e.g. a prefix-LM
 * or custom pattern given as 0 / -1e4 entries, always finite), fp16, int D, scale parameter.
 * Style: s = dot * scale + mask[i][j]; scores in s[N]; fmaxf/expf; normalisation applied by
 * multiplying with 1/l computed once; j-outer P.V into acc[D]; rolling(j) tile(i:128, j:64). */
#include <math.h>

void masked_attn(int B, int H, int N, int D, float scale, const float mask[N][N],
		 const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		 const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(masked_attn) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = dot * scale + mask[i][j];
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float p = expf(s[j] - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				const float inv_l = 1.0f / l;
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)(acc[d] * inv_l);
			}
}
