/* PaliGemma / UniLM prefix-LM: bidirectional over each sequence's prefix (image + prompt tokens),
 * causal after it: key j visible to query i when j <= i || j < prefix_len[b]. */
#include <math.h>
#include <stdint.h>
void prefix_lm(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64],
	       const int64_t prefix_len[B], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(prefix_lm) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = (j <= i || j < prefix_len[b]) ? t * 0.125f : -INFINITY;
					mx = fmaxf(mx, s[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) sum += expf(s[j] - mx);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += expf(s[j] - mx) * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / sum);
				}
			}
}
