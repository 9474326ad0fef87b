/* A mask written once as a bool helper (FlexAttention's mask_mod style) and used by an
 * online softmax: causal with a sliding window of W keys. fp16, d = 128, scale as a
 * parameter. */
#include <math.h>
#include <stdbool.h>

static bool visible(int q_idx, int kv_idx, int W)
{
	return kv_idx <= q_idx && q_idx - kv_idx < W;
}

void swa_attn(int B, int H, int N, int W, float scale, const _Float16 Q[B][H][N][128],
	      const _Float16 K[B][H][N][128], const _Float16 V[B][H][N][128], _Float16 O[B][H][N][128])
{
#pragma fuse kernel(swa_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j < N; j++) {
					if (!visible(i, j, W))
						continue;
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += (float)Q[b][h][i][d] * (float)K[b][h][j][d];
					s *= scale;
					float mn = fmaxf(m, s);
					float a = expf(m - mn), p = expf(s - mn);
					l = l * a + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * a + p * (float)V[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					O[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
