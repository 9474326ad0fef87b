/* Chunked prefill against a KV cache that already holds past_len tokens: NQ new queries, NK = past_len
 * + NQ keys; query i sits at position past_len + i and sees keys j <= past_len + i (bottom-right causal). */
#include <math.h>

void chunked_prefill(int B, int H, int NQ, int NK, int past_len, const _Float16 q[B][H][NQ][128],
		     const _Float16 k[B][H][NK][128], const _Float16 v[B][H][NK][128], _Float16 o[B][H][NQ][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(chunked_prefill) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				const int qpos = past_len + i;
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= qpos; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= scale;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
