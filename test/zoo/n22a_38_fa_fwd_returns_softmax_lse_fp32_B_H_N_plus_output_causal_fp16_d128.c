/* flash_attn_func(..., return_attn_probs) style reference that also returns softmax_lse [B][H][N]
 * (m + log l, in natural log), used later by the backward pass or to merge partial results. */
#include <math.h>

void fa_fwd_lse(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128], float softmax_lse[B][H][N])
{
	const float softmax_scale = 0.08838834764831845f;
#pragma fuse kernel(fa_fwd_lse) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= softmax_scale;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
				softmax_lse[b][h][i] = m + logf(l);
			}
}
