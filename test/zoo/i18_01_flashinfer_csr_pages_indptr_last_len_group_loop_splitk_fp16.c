/* FlashInfer-style paged decode: pages of every request in CSR form (kv_indptr[B + 1] into
 * kv_indices), the last page partly filled (kv_last_page_len), run-time page size; the query
 * heads of one KV head as a group loop inside the parallel clause; split-k over the keys.
 * Cache [P][PAGE][KVH][128] fp16, written by someone porting the FlashInfer reference. */
#include <math.h>
#include <stdint.h>

#define HEAD_DIM 128

void batch_decode_paged(int B, int KVH, int G, int PAGE, int NNZ, int P,
			const int32_t kv_indptr[B + 1], const int32_t kv_indices[NNZ], const int32_t kv_last_page_len[B],
			const _Float16 q[B][KVH * G][HEAD_DIM], const _Float16 k_pages[P][PAGE][KVH][HEAD_DIM],
			const _Float16 v_pages[P][PAGE][KVH][HEAD_DIM], _Float16 o[B][KVH * G][HEAD_DIM])
{
	const float sm_scale = 1.0f / sqrtf((float)HEAD_DIM);
#pragma fuse kernel(batch_decode_paged) parallel(b, kvh, g) splitk(t)
	for (int b = 0; b < B; b++)
		for (int kvh = 0; kvh < KVH; kvh++)
			for (int g = 0; g < G; g++) {
				const int qh = kvh * G + g;
				const int num_pages = kv_indptr[b + 1] - kv_indptr[b];
				const int kv_len = (num_pages - 1) * PAGE + kv_last_page_len[b];
				float m = -INFINITY, d = 0.0f;
				float acc[HEAD_DIM];
				for (int e = 0; e < HEAD_DIM; e++) acc[e] = 0.0f;
				for (int t = 0; t < kv_len; t++) {
					const int page = kv_indices[kv_indptr[b] + t / PAGE];
					const int slot = t % PAGE;
					float s = 0.0f;
					for (int e = 0; e < HEAD_DIM; e++) s += (float)q[b][qh][e] * (float)k_pages[page][slot][kvh][e];
					s *= sm_scale;
					const float m_new = fmaxf(m, s);
					const float corr = expf(m - m_new);
					const float p = expf(s - m_new);
					d = d * corr + p;
					for (int e = 0; e < HEAD_DIM; e++) acc[e] = acc[e] * corr + p * (float)v_pages[page][slot][kvh][e];
					m = m_new;
				}
				for (int e = 0; e < HEAD_DIM; e++) o[b][qh][e] = (_Float16)(acc[e] / d);
			}
}
