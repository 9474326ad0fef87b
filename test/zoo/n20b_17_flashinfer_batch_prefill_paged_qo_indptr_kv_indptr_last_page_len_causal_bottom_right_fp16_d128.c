/* FlashInfer BatchPrefillWithPagedKVCacheWrapper semantics (NHD layout, causal=True): queries
 * ragged by qo_indptr, pages by paged_kv_indptr / paged_kv_indices, last page partly filled by
 * paged_kv_last_page_len, run-time page_size; causal aligned bottom-right: query i of a
 * request of qo_len queries and kv_len keys sees keys j <= kv_len - qo_len + i. int32 indices. */
#include <math.h>
#include <stdint.h>

void batch_prefill_paged(int batch_size, int nnz_qo, int num_qo_heads, int num_kv_heads, int num_pages,
		int page_size, int nnz_pages, float sm_scale,
		const _Float16 q[nnz_qo][num_qo_heads][128],
		const _Float16 paged_k[num_pages][page_size][num_kv_heads][128],
		const _Float16 paged_v[num_pages][page_size][num_kv_heads][128],
		const int32_t qo_indptr[batch_size + 1], const int32_t paged_kv_indptr[batch_size + 1],
		const int32_t paged_kv_indices[nnz_pages], const int32_t paged_kv_last_page_len[batch_size],
		_Float16 o[nnz_qo][num_qo_heads][128])
{
	const int group_size = num_qo_heads / num_kv_heads;
#pragma fuse kernel(batch_prefill_paged) parallel(r, qo_head, i)
	for (int r = 0; r < batch_size; r++)
		for (int qo_head = 0; qo_head < num_qo_heads; qo_head++)
			for (int i = 0; i < qo_indptr[r + 1] - qo_indptr[r]; i++) {
				const int qo_len = qo_indptr[r + 1] - qo_indptr[r];
				const int kv_len = (paged_kv_indptr[r + 1] - paged_kv_indptr[r] - 1) * page_size + paged_kv_last_page_len[r];
				const int kv_head = qo_head / group_size;
				const int qi = qo_indptr[r] + i;
				float m = -INFINITY, d = 0.0f, o_acc[128];
				for (int e = 0; e < 128; e++) o_acc[e] = 0.0f;
				for (int j = 0; j < kv_len; j++) {
					if (j > kv_len - qo_len + i) break;
					const int page = paged_kv_indices[paged_kv_indptr[r] + j / page_size];
					float s = 0.0f;
					for (int e = 0; e < 128; e++)
						s += (float)q[qi][qo_head][e] * (float)paged_k[page][j % page_size][kv_head][e];
					s *= sm_scale;
					float m_new = fmaxf(m, s), sc = expf(m - m_new), p = expf(s - m_new);
					d = d * sc + p;
					for (int e = 0; e < 128; e++)
						o_acc[e] = o_acc[e] * sc + p * (float)paged_v[page][j % page_size][kv_head][e];
					m = m_new;
				}
				for (int e = 0; e < 128; e++) o[qi][qo_head][e] = (_Float16)(o_acc[e] / d);
			}
}
