/* ALiBi causal attention (prefill), fp16, literal head dim 128, slopes given per head in a
 * float array. Style: bias slopes[h] * (j - i) (<= 0 on the causal triangle); causal as the
 * loop bound j <= i; scores in a local s[N] (only s[0..i] used); fmaxf/expf; tile + rolling. */
#include <math.h>

void alibi_causal(int B, int H, int N, float scale, const float slopes[H],
		  const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		  const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(alibi_causal) parallel(b, h, i) tile(i:64, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 128; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = dot * scale + slopes[h] * (float)(j - i);
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++)
						acc += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
