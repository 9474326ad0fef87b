/* vLLM-style paged decode reference: block_tables int32 [B][MAXB], context_lens [B], run-time block
 * size BS, cache [NB][KVH][BS][128], GQA with H / KVH query heads per KV head; splitk clause. */
#include <math.h>
#include <stdint.h>

void paged_decode(int B, int H, int KVH, int NB, int BS, int MAXB, float scale, const _Float16 q[B][H][128],
		  const _Float16 kc[NB][KVH][BS][128], const _Float16 vc[NB][KVH][BS][128],
		  const int32_t block_tables[B][MAXB], const int32_t context_lens[B], _Float16 out[B][H][128])
{
#pragma fuse kernel(paged_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / (H / KVH);
			const int len = context_lens[b];
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int t = 0; t < len; t++) {
				const int blk = block_tables[b][t / BS], off = t % BS;
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)kc[blk][kvh][off][d];
				s *= scale;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)vc[blk][kvh][off][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++) out[b][h][d] = (_Float16)(acc[d] / l);
		}
}
