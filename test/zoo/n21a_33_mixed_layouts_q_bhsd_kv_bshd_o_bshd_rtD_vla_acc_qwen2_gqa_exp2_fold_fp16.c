/* Mixed layouts as a serving stack has them: q comes from the rotary kernel in [B][H][N][D], K/V
 * are the cache's [B][N][KVH][D], the output goes to o_proj as [B][N][H][D]; run-time head dim
 * (VLA accumulator), Qwen2 GQA, exp2f with log2(e) folded into the scale. */
#include <math.h>

void mixed_attn(int B, int H, int KVH, int N, int D, const _Float16 q[B][H][N][D], const _Float16 k[B][N][KVH][D],
		const _Float16 v[B][N][KVH][D], _Float16 o[B][N][H][D])
{
	const float qk_scale = 1.4426950408889634f / sqrtf((float)D);
#pragma fuse kernel(mixed_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int kvh = h / (H / KVH);
				float m = -INFINITY, l = 0.0f, acc[D];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)q[b][h][i][d] * (float)k[b][j][kvh][d];
					s *= qk_scale;
					const float mn = fmaxf(m, s), alpha = exp2f(m - mn), p = exp2f(s - mn);
					l = l * alpha + p;
					for (int d = 0; d < D; d++) acc[d] = acc[d] * alpha + p * (float)v[b][j][kvh][d];
					m = mn;
				}
				for (int d = 0; d < D; d++) o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
