/* Paged decode, cache kc[blk][off][kvh][d] indexed through a block table, page size a run-time
 * int, no schedule clause (the user left it to the tool); bf16; online softmax. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void paged_dec(int B, int H, int G, int PS, int NBLK, int MAXB, const int block_table[B][MAXB],
	       const int ctx[B], const fusecc_bf16 q[B][H][128],
	       const fusecc_bf16 kc[NBLK][PS][H / G][128], const fusecc_bf16 vc[NBLK][PS][H / G][128],
	       fusecc_bf16 o[B][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(paged_dec)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			for (int t = 0; t < ctx[b]; t++) {
				const int blk = block_table[b][t / PS];
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(kc[blk][t % PS][h / G][d]);
				s *= scale;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++)
					acc[d] = acc[d] * c + p * fusecc_bf16_to_float(vc[blk][t % PS][h / G][d]);
				m = mn;
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = fusecc_float_to_bf16(acc[d] / l);
		}
}
