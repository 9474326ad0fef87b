/* Chunked prefill over a paged KV cache (vLLM/FlashInfer style): NQ new queries are the last NQ
 * positions of a sequence of kv_len[b] tokens; cache [NB][PAGE][KVH][128] through an int32
 * block table, run-time page size, GQA by h / G; causal j <= kv_len[b] - NQ + i. */
#include <math.h>
#include <stdint.h>

void paged_prefill(int B, int H, int G, int NQ, int PAGE, int MAXP, int NB, const int32_t block_table[B][MAXP],
		   const int32_t kv_len[B], const _Float16 q[B][NQ][H][128], const _Float16 kc[NB][PAGE][H / G][128],
		   const _Float16 vc[NB][PAGE][H / G][128], _Float16 o[B][NQ][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(paged_prefill) parallel(b, i, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < NQ; i++)
			for (int h = 0; h < H; h++) {
				const int kvh = h / G;
				const int last = kv_len[b] - NQ + i;
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j <= last; j++) {
					const int pg = block_table[b][j / PAGE];
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][i][h][d] * (float)kc[pg][j % PAGE][kvh][d];
					m = fmaxf(m, s * scale);
				}
				for (int j = 0; j <= last; j++) {
					const int pg = block_table[b][j / PAGE];
					float s = 0.0f;
					for (int d = 0; d < 128; d++) s += (float)q[b][i][h][d] * (float)kc[pg][j % PAGE][kvh][d];
					float p = expf(s * scale - m);
					l += p;
					for (int d = 0; d < 128; d++) acc[d] += p * (float)vc[pg][j % PAGE][kvh][d];
				}
				for (int d = 0; d < 128; d++) o[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
