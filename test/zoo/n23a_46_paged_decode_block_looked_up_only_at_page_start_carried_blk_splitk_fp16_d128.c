/* A C programmer's paged decode that looks the physical block up only when a new
 * page starts (if (j % page == 0) blk = table[b][j / page];), carrying blk across keys.
 * A split of the key loop must not start a chunk mid-page with a stale blk. splitk(j). */
#include <math.h>
#include <stdint.h>

void paged_decode_carried_blk(int B, int H, int NB, int page, int max_pages, const _Float16 q[B][H][128],
			      const _Float16 kc[NB][page][H][128], const _Float16 vc[NB][page][H][128],
			      const int32_t table[B][max_pages], const int32_t lens[B], _Float16 o[B][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(paged_decode_carried_blk) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			int blk = 0;
			for (int j = 0; j < lens[b]; j++) {
				if (j % page == 0)
					blk = table[b][j / page];
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += (float)q[b][h][d] * (float)kc[blk][j % page][h][d];
				s *= scale;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * c + p * (float)vc[blk][j % page][h][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
