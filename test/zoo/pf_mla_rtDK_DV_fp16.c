/* pf_mla_rtDK_DV_fp16.c: DeepSeek MLA-style causal prefill with unequal head dims: q.k
 * over DK (192 = 128 nope + 64 rope, already concatenated), P.V over DV (128).
 * Style: fp16, two run-time dims `int DK, int DV`, the scale computed before the region
 * from DK, stored scores, max / sum / d-outer P.V normalised after, triangular j <= i.
 * rolling(j), parallel(b, h, i), no tile. */
#include <math.h>

void mla_prefill(int B, int H, int N, int DK, int DV,
		 const _Float16 q[B][H][N][DK], const _Float16 k[B][H][N][DK],
		 const _Float16 v[B][H][N][DV], _Float16 o[B][H][N][DV])
{
	const float softmax_scale = 1.0f / sqrtf((float)DK);
#pragma fuse kernel(mla_prefill) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int c = 0; c < DK; c++)
						dot += (float)q[b][h][i][c] * (float)k[b][h][j][c];
					s[j] = dot * softmax_scale;
				}
				float m = -INFINITY;
				for (int j = 0; j <= i; j++)
					m = fmaxf(m, s[j]);
				float l = 0.0f;
				for (int j = 0; j <= i; j++)
					l += expf(s[j] - m);
				for (int c = 0; c < DV; c++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++)
						acc += expf(s[j] - m) * (float)v[b][h][j][c];
					o[b][h][i][c] = (_Float16)(acc / l);
				}
			}
}
