/* ix_flashinfer_paged_prefill_continue_first_fp16.c: FlashInfer's BatchPrefillWithPagedKVCache reference (tests/ref code, as C): ragged
 * queries q[nnz_qo][H][D] by qo_indptr, paged KV by kv_indptr/kv_indices/kv_last_page_len,
 * NHD pages paged_k[num_pages][PAGE][H][D]; causal aligned to the end of the KV
 * (key j visible to query i when j <= i + kv_len - qo_len; FlashInfer requires kv_len >=
 * qo_len, which the sizes keep: a query row with no visible key divides 0 by 0). int32
 * index arrays, D = 128. */
#include <math.h>
#include <stdint.h>

#define PAGE 16
#define HD 128

void batch_prefill_paged(int batch, int H, int nnz_qo, int num_pages, int nnz_pages, float sm_scale,
			 const _Float16 q[nnz_qo][H][HD], const _Float16 paged_k[num_pages][PAGE][H][HD],
			 const _Float16 paged_v[num_pages][PAGE][H][HD], const int32_t qo_indptr[batch + 1],
			 const int32_t kv_indptr[batch + 1], const int32_t kv_indices[nnz_pages],
			 const int32_t kv_last_page_len[batch], _Float16 o[nnz_qo][H][HD])
{
#pragma fuse kernel(batch_prefill_paged) parallel(b, h, i) rolling(j)
	for (int b = 0; b < batch; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < qo_indptr[b + 1] - qo_indptr[b]; i++) {
				const int qo_len = qo_indptr[b + 1] - qo_indptr[b];
				const int kv_len = (kv_indptr[b + 1] - kv_indptr[b] - 1) * PAGE + kv_last_page_len[b];
				const int row = qo_indptr[b] + i;
				float m = -INFINITY, l = 0.0f;
				float acc[HD] = {0};
				for (int j = 0; j < kv_len; j++) {
					if (j > i + kv_len - qo_len) continue;
					const int page = kv_indices[kv_indptr[b] + j / PAGE];
					float s = 0.0f;
					for (int d = 0; d < HD; d++)
						s += (float)q[row][h][d] * (float)paged_k[page][j % PAGE][h][d];
					s *= sm_scale;
					float m_new = fmaxf(m, s);
					float alpha = expf(m - m_new);
					float p = expf(s - m_new);
					l = l * alpha + p;
					for (int d = 0; d < HD; d++)
						acc[d] = acc[d] * alpha + p * (float)paged_v[page][j % PAGE][h][d];
					m = m_new;
				}
				for (int d = 0; d < HD; d++)
					o[row][h][d] = (_Float16)(acc[d] / l);
			}
}
