/* Prefix-LM (PaliGemma / T5-style) mask with one prefix length P for the batch: bidirectional over
 * the first P tokens, causal after; masked keys skipped with continue; D=96; fp16. */
#include <math.h>

void prefix_lm(int B, int H, int N, int P, const _Float16 q[B][H][N][96], const _Float16 k[B][H][N][96],
	       const _Float16 v[B][H][N][96], _Float16 o[B][H][N][96])
{
	const float scale = 1.0f / sqrtf(96.0f);
#pragma fuse kernel(prefix_lm) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[96];
				for (int d = 0; d < 96; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					if (j > i && j >= P) continue;
					float s = 0.0f;
					for (int d = 0; d < 96; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= scale;
					float mn = s > m ? s : m;
					float a = expf(m - mn), p = expf(s - mn);
					l = l * a + p;
					for (int d = 0; d < 96; d++) acc[d] = acc[d] * a + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 96; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
