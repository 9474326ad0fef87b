/* Ported from a PyTorch eager reference by an ML engineer: q, k, v are [B, S, H, D] (BSHD, as
 * flash_attn_func takes them), head_dim a run-time int, scale computed before the loop,
 * causal by `if (j > i) continue;`, scores materialised per row. */
#include <math.h>

void sdpa_bshd_causal(int B, int S, int H, int head_dim, const _Float16 q[B][S][H][head_dim],
		      const _Float16 k[B][S][H][head_dim], const _Float16 v[B][S][H][head_dim],
		      _Float16 out[B][S][H][head_dim])
{
	const float scale = 1.0f / sqrtf((float)head_dim);
#pragma fuse kernel(sdpa_bshd_causal) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < S; i++) {
				float scores[S];
				float row_max = -INFINITY;
				for (int j = 0; j < S; j++) {
					if (j > i) continue;
					float dot = 0.0f;
					for (int d = 0; d < head_dim; d++)
						dot += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					scores[j] = dot * scale;
					row_max = fmaxf(row_max, scores[j]);
				}
				float denom = 0.0f;
				for (int j = 0; j < S; j++) {
					if (j > i) continue;
					scores[j] = expf(scores[j] - row_max);
					denom += scores[j];
				}
				for (int d = 0; d < head_dim; d++) {
					float acc = 0.0f;
					for (int j = 0; j < S; j++) {
						if (j > i) continue;
						acc += scores[j] * (float)v[b][j][h][d];
					}
					out[b][i][h][d] = (_Float16)(acc / denom);
				}
			}
}
