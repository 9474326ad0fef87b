/* Gemma-2 local layer: logit softcap 50 (tanh) and a sliding window written i - j < W with causal,
 * query pre-scaling by query_pre_attn_scalar^-0.5 = 1/16; D=256; GQA by h / G; fp16. */
#include <math.h>

void gemma2_local(int B, int H, int G, int N, int W, const _Float16 q[B][H][N][256],
		  const _Float16 k[B][H / G][N][256], const _Float16 v[B][H / G][N][256], _Float16 o[B][H][N][256])
{
	const float cap = 50.0f;
#pragma fuse kernel(gemma2_local) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int kh = h / G;
				float m = -INFINITY, l = 0.0f, acc[256];
				for (int d = 0; d < 256; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					if (i - j >= W) continue;
					float s = 0.0f;
					for (int d = 0; d < 256; d++) s += (float)q[b][h][i][d] * 0.0625f * (float)k[b][kh][j][d];
					s = cap * tanhf(s / cap);
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 256; d++) acc[d] = acc[d] * c + p * (float)v[b][kh][j][d];
					m = mn;
				}
				for (int d = 0; d < 256; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
