/* dc_gqa_grouploop_rolling_qrow_bf16.c: FlashInfer-style paged decode (NHD pages:
 * k_data[page][page_size][kv_heads][D]), run-time page size, per-request length kv_len[b]
 * and page table page_idx[b][max_pages]; GQA with the group loop inside parallel(b, kh).
 * Style: bf16 storage, `#define D 128`, q read through a `const T *qrow = &q[..][0]`
 * pointer local, page/slot int locals, `acc[D] = {0}`, two passes recomputing q.k,
 * rolling(j) (no split): a CTA holds the G query heads of a KV head. */
#include <math.h>
#include "fusecc.h"

#define D 128

void paged_decode_group(int B, int KVH, int G, int num_pages, int max_pages, int page_size,
			const fusecc_bf16 q[B][KVH][G][D],
			const fusecc_bf16 k_data[num_pages][page_size][KVH][D],
			const fusecc_bf16 v_data[num_pages][page_size][KVH][D],
			const int page_idx[B][max_pages], const int kv_len[B],
			fusecc_bf16 o[B][KVH][G][D])
{
	const float sm_scale = 0.08838834764831845f; /* 1/sqrt(128) */
#pragma fuse kernel(paged_decode_group) parallel(b, kh) rolling(j)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KVH; kh++)
			for (int g = 0; g < G; g++) {
				const fusecc_bf16 *qrow = &q[b][kh][g][0];
				float mx = -INFINITY;
				for (int j = 0; j < kv_len[b]; j++) {
					int page = page_idx[b][j / page_size];
					int slot = j % page_size;
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(qrow[d]) * fusecc_bf16_to_float(k_data[page][slot][kh][d]);
					mx = fmaxf(mx, s * sm_scale);
				}
				float den = 0.0f;
				float acc[D] = {0};
				for (int j = 0; j < kv_len[b]; j++) {
					int page = page_idx[b][j / page_size];
					int slot = j % page_size;
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(qrow[d]) * fusecc_bf16_to_float(k_data[page][slot][kh][d]);
					float p = expf(s * sm_scale - mx);
					den += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * fusecc_bf16_to_float(v_data[page][slot][kh][d]);
				}
				for (int d = 0; d < D; d++)
					o[b][kh][g][d] = fusecc_float_to_bf16(acc[d] / den);
			}
}
