/* Grok-1 style: attention logits soft-capped at 30 (30 * tanh(s / 30)) after scaling, plus an additive
 * per-head bias [H][N][N] (learned), causal, GQA by h / (H / KVH). */
#include <math.h>

void grok_attn(int B, int H, int KVH, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][KVH][N][128],
	       const _Float16 v[B][KVH][N][128], const float bias[H][N][N], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(grok_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int kv = h / (H / KVH);
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][kv][j][d];
					s = 30.0f * tanhf(s * 0.08838834764831845f / 30.0f) + bias[h][i][j];
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][kv][j][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
