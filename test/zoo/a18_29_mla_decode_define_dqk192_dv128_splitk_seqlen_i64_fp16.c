/* MLA-shaped decode (non-absorbed) with query/key width 192 and value width 128 as #defines,
 * per-sequence cache lengths as int64, split-k over the cache. */
#include <math.h>
#include <stdint.h>
#define DQK 192
#define DV 128

void mla_decode(int B, int H, int L, const int64_t cache_seqlens[B], const _Float16 q[B][H][DQK],
		const _Float16 k[B][H][L][DQK], const _Float16 v[B][H][L][DV], _Float16 o[B][H][DV])
{
	const float softmax_scale = 1.0f / sqrtf((float)DQK);
#pragma fuse kernel(mla_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[DV];
			for (int c = 0; c < DV; c++) acc[c] = 0.0f;
			for (int64_t j = 0; j < cache_seqlens[b]; j++) {
				float s = 0.0f;
				for (int c = 0; c < DQK; c++) s += (float)q[b][h][c] * (float)k[b][h][j][c];
				s *= softmax_scale;
				const float mn = fmaxf(m, s), a = expf(m - mn), p = expf(s - mn);
				l = a * l + p;
				for (int c = 0; c < DV; c++) acc[c] = a * acc[c] + p * (float)v[b][h][j][c];
				m = mn;
			}
			for (int c = 0; c < DV; c++) o[b][h][c] = (_Float16)(acc[c] / l);
		}
}
