/* Phi-2 (head_dim 80, 32 heads) causal prefill, bshd, fp16; head dim as a #define. */
#include <math.h>
#define HEAD_DIM 80

void phi2_attn(int B, int N, int H, const _Float16 q[B][N][H][HEAD_DIM], const _Float16 k[B][N][H][HEAD_DIM],
	       const _Float16 v[B][N][H][HEAD_DIM], _Float16 o[B][N][H][HEAD_DIM])
{
	const float scale = 1.0f / sqrtf((float)HEAD_DIM);
#pragma fuse kernel(phi2_attn) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float m = -INFINITY, l = 0.0f, acc[HEAD_DIM] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++) s += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					s *= scale;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < HEAD_DIM; d++) acc[d] = acc[d] * c + p * (float)v[b][j][h][d];
					m = mn;
				}
				for (int d = 0; d < HEAD_DIM; d++) o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
