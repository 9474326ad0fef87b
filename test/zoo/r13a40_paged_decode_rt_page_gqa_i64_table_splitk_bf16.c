/* Paged decode with a run-time page size, int64 block table, GQA by h / G, split-k, bf16;
 * context lengths int32; the page and slot computed in locals. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void paged_dec_rt(int B, int H, int G, int PS, int NP, int MAXP, float scale,
		  const int64_t block_table[B][MAXP], const int32_t ctx_lens[B],
		  const fusecc_bf16 q[B][H][128], const fusecc_bf16 kcache[NP][PS][H / G][128],
		  const fusecc_bf16 vcache[NP][PS][H / G][128], fusecc_bf16 out[B][H][128])
{
#pragma fuse kernel(paged_dec_rt) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int kvh = h / G;
			float logits[MAXP * PS];
			float qk_max = -INFINITY;
			for (int t = 0; t < ctx_lens[b]; t++) {
				const int64_t page = block_table[b][t / PS];
				const int slot = t % PS;
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(kcache[page][slot][kvh][d]);
				logits[t] = s * scale;
				qk_max = fmaxf(qk_max, logits[t]);
			}
			float exp_sum = 0.0f;
			for (int t = 0; t < ctx_lens[b]; t++) {
				logits[t] = expf(logits[t] - qk_max);
				exp_sum += logits[t];
			}
			const float inv_sum = 1.0f / (exp_sum + 1e-6f);
			for (int d = 0; d < 128; d++) {
				float acc = 0.0f;
				for (int t = 0; t < ctx_lens[b]; t++) {
					const int64_t page = block_table[b][t / PS];
					acc += logits[t] * fusecc_bf16_to_float(vcache[page][t % PS][kvh][d]);
				}
				out[b][h][d] = fusecc_float_to_bf16(acc * inv_sum);
			}
		}
}
