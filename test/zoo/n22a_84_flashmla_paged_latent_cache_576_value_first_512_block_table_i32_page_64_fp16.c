/* FlashMLA-style decode against a paged latent cache: each cached token is one 576-wide row
 * (512 latent + 64 rope), page size 64 (#define), block_table int32; q is 576 wide (absorbed); the value
 * is the first 512 columns of the same row. */
#include <math.h>
#include <stdint.h>
#define PAGE 64

void flashmla_decode(int B, int H, int MAXP, int NP, float softmax_scale, const int32_t cache_seqlens[B],
		     const int32_t block_table[B][MAXP], const _Float16 q[B][H][576], const _Float16 kv_cache[NP][PAGE][576],
		     _Float16 out[B][H][512])
{
#pragma fuse kernel(flashmla_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[512];
			for (int c = 0; c < 512; c++) acc[c] = 0.0f;
			for (int t = 0; t < cache_seqlens[b]; t++) {
				const int page = block_table[b][t / PAGE];
				float s = 0.0f;
				for (int c = 0; c < 576; c++) s += (float)q[b][h][c] * (float)kv_cache[page][t % PAGE][c];
				s *= softmax_scale;
				float mn = fmaxf(m, s), cr = expf(m - mn), p = expf(s - mn);
				l = l * cr + p;
				for (int c = 0; c < 512; c++) acc[c] = acc[c] * cr + p * (float)kv_cache[page][t % PAGE][c];
				m = mn;
			}
			for (int c = 0; c < 512; c++) out[b][h][c] = (_Float16)(acc[c] / l);
		}
}
