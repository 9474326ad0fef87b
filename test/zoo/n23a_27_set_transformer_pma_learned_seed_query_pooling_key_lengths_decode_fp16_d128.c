/* Set Transformer's PMA (pooling by multihead attention) / CLIP-style attention pooling:
 * one learned seed query per head pools each set of up to Nmax items; set_len[b] items are
 * valid. The seed has no batch index; the result is one vector per (b, h). fp16. */
#include <math.h>
#include <stdint.h>

void pma_pool(int B, int H, int Nmax, const _Float16 seed[H][128], const _Float16 k[B][Nmax][H][128],
	      const _Float16 v[B][Nmax][H][128], const int64_t set_len[B], _Float16 pooled[B][H][128])
{
	const float scale = 1.0f / sqrtf(128.0f);
#pragma fuse kernel(pma_pool) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			for (int j = 0; j < set_len[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)seed[h][d] * (float)k[b][j][h][d];
				s *= scale;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * c + p * (float)v[b][j][h][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				pooled[b][h][d] = (_Float16)(acc[d] / l);
		}
}
