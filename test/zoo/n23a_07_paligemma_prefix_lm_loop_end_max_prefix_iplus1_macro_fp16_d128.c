/* PaliGemma-style prefix-LM attention: the image+prompt prefix (prefix_len[b] tokens) is
 * bidirectional, the suffix is causal. Written as a loop end: a query sees keys
 * [0, max(prefix_len, i + 1)). A numpy person's MAX macro. fp16, head dim 128. */
#include <math.h>
#include <stdint.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))

void prefix_lm_attn(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		    const _Float16 v[B][H][N][128], const int64_t prefix_len[B], _Float16 o[B][H][N][128])
{
	const float scale = 1.0f / sqrtf(128.0f);
#pragma fuse kernel(prefix_lm) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int kend = MAX((int)prefix_len[b], i + 1);
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j < kend; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= scale;
					float mn = MAX(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
