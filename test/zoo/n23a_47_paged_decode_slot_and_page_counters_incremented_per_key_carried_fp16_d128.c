/* Paged decode walking the pages with counters carried across keys, as an HPC
 * programmer avoids the division: slot++ and, at the page's end, slot = 0; pi++.
 * The physical block is table[b][pi]. No schedule clause (fusecc picks one). */
#include <math.h>
#include <stdint.h>

void paged_decode_counters(int B, int H, int NB, int page, int max_pages, const _Float16 q[B][H][128],
			   const _Float16 kc[NB][page][H][128], const _Float16 vc[NB][page][H][128],
			   const int32_t table[B][max_pages], const int32_t lens[B], _Float16 o[B][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(paged_decode_counters) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			int pi = 0, slot = 0;
			for (int j = 0; j < lens[b]; j++) {
				const int blk = table[b][pi];
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (float)kc[blk][slot][h][d];
				s *= scale;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * c + p * (float)vc[blk][slot][h][d];
				m = mn;
				slot++;
				if (slot == page) {
					slot = 0;
					pi++;
				}
			}
			for (int d = 0; d < 128; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
