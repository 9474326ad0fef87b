/* dc_paged_page_then_slot_loops_online_splitk_fp16: paged-KV decode written page by page:
 * for each of the sequence's pages, its physical block from the block table, then the
 * PAGE slots inside it; a hand-written online softmax over the keys, split-k over the pages.
 * Style: a serving engineer's CPU reference (cache [num_blocks][H][PAGE][D], every page
 * full), fp16, D=128, PAGE=16. */
#include <math.h>
#define D 128
#define PAGE 16

void paged_decode(int B, int H, int MAXP, int NBLK, float scale, const int npages[B], const int block_table[B][MAXP],
		  const _Float16 q[B][H][D], const _Float16 k_cache[NBLK][H][PAGE][D], const _Float16 v_cache[NBLK][H][PAGE][D],
		  _Float16 out[B][H][D])
{
#pragma fuse kernel(paged_decode) parallel(b, h) splitk(p)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int p = 0; p < npages[b]; p++) {
				const int blk = block_table[b][p];
				for (int s = 0; s < PAGE; s++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++)
						x += (float)q[b][h][d] * (float)k_cache[blk][h][s][d];
					x *= scale;
					const float m_new = fmaxf(m, x);
					const float alpha = expf(m - m_new), w = expf(x - m_new);
					l = l * alpha + w;
					for (int d = 0; d < D; d++)
						acc[d] = acc[d] * alpha + w * (float)v_cache[blk][h][s][d];
					m = m_new;
				}
			}
			for (int d = 0; d < D; d++)
				out[b][h][d] = (_Float16)(l > 0.0f ? acc[d] / l : 0.0f);
		}
}
