/* pf_attention_skip_padded_queries_continue_fp16: prefill over a padded batch that skips
 * the padded query rows (`if (i >= len[b]) continue;` before the row's work), keys up to the
 * sequence's length, three passes with the scores in a row. fp16, D=64. */
#include <math.h>
#define D 64

void attn_skip(int B, int H, int N, const int len[B], float scale, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
	       const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_skip) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				if (i >= len[b])
					continue;
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < len[b]; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++)
						x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = x * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < len[b]; j++)
					l += expf(s[j] - m);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < len[b]; j++)
						acc += expf(s[j] - m) * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
