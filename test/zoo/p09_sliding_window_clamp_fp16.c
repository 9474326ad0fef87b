/* Mistral-style sliding-window causal attention (prefill), fp16, #define HEAD_DIM 128.
 * Key range is [max(0, i-W+1), i]: the lower bound is a local clamped with an if, the upper
 * bound is j <= i. Style: scale parameter; scores recomputed in each of the three passes;
 * fmaxf/expf; d-outer P.V. */
#include <math.h>

#define HEAD_DIM 128

void swa_attn(int B, int H, int N, int W, float scale,
	      const _Float16 q[B][H][N][HEAD_DIM], const _Float16 k[B][H][N][HEAD_DIM],
	      const _Float16 v[B][H][N][HEAD_DIM], _Float16 o[B][H][N][HEAD_DIM])
{
#pragma fuse kernel(swa_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				int lo = i - W + 1;
				if (lo < 0)
					lo = 0;
				float m = -INFINITY;
				for (int j = lo; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * scale);
				}
				float l = 0.0f;
				for (int j = lo; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					l += expf(s * scale - m);
				}
				for (int d = 0; d < HEAD_DIM; d++) {
					float acc = 0.0f;
					for (int j = lo; j <= i; j++) {
						float s = 0.0f;
						for (int e = 0; e < HEAD_DIM; e++)
							s += (float)q[b][h][i][e] * (float)k[b][h][j][e];
						acc += expf(s * scale - m) * (float)v[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
