/* torch.nn.functional.scaled_dot_product_attention with a boolean attn_mask (True = take part),
 * one [N][N] mask shared by batch and heads, written online by someone who read FlashAttention. */
#include <math.h>
#include <stdbool.h>

void sdpa_bool(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
	       const _Float16 v[B][H][N][128], const bool attn_mask[N][N], _Float16 o[B][H][N][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(sdpa_bool) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = -INFINITY;
					if (attn_mask[i][j]) {
						s = 0.0f;
						for (int d = 0; d < 128; d++)
							s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
						s *= scale;
					}
					float mn = fmaxf(m, s);
					if (mn == -INFINITY)
						continue;
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
