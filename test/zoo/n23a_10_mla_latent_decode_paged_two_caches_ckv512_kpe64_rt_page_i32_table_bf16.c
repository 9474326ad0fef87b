/* FlashInfer's MLA decode (BatchMLAPagedAttention) reference: the compressed KV cache is
 * two paged arrays, ckv_cache[pages][page_size][512] and kpe_cache[pages][page_size][64];
 * q_nope (absorbed, 512) and q_pe (64) per head; every head reads the same latent cache,
 * whose 512 columns are also the value. Run-time page size, int32 page table. bf16. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void mla_paged_decode(int B, int H, int num_pages, int page_size, int max_pages, float sm_scale,
		      const fusecc_bf16 q_nope[B][H][512], const fusecc_bf16 q_pe[B][H][64],
		      const fusecc_bf16 ckv_cache[num_pages][page_size][512],
		      const fusecc_bf16 kpe_cache[num_pages][page_size][64], const int32_t page_table[B][max_pages],
		      const int32_t kv_len[B], fusecc_bf16 out[B][H][512])
{
#pragma fuse kernel(mla_paged_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[512];
			for (int c = 0; c < 512; c++)
				acc[c] = 0.0f;
			for (int t = 0; t < kv_len[b]; t++) {
				const int pg = page_table[b][t / page_size];
				const int slot = t % page_size;
				float s_nope = 0.0f, s_pe = 0.0f;
				for (int c = 0; c < 512; c++)
					s_nope += fusecc_bf16_to_float(q_nope[b][h][c]) * fusecc_bf16_to_float(ckv_cache[pg][slot][c]);
				for (int r = 0; r < 64; r++)
					s_pe += fusecc_bf16_to_float(q_pe[b][h][r]) * fusecc_bf16_to_float(kpe_cache[pg][slot][r]);
				float s = (s_nope + s_pe) * sm_scale;
				float mn = fmaxf(m, s);
				float a = expf(m - mn), p = expf(s - mn);
				l = l * a + p;
				for (int c = 0; c < 512; c++)
					acc[c] = acc[c] * a + p * fusecc_bf16_to_float(ckv_cache[pg][slot][c]);
				m = mn;
			}
			for (int c = 0; c < 512; c++)
				out[b][h][c] = fusecc_float_to_bf16(acc[c] / l);
		}
}
