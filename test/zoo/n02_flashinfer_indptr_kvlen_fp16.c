/* n02_flashinfer_indptr_kvlen_fp16.c: FlashInfer-style batch decode over a paged KV cache
 * (NHD pages of 16 tokens), fp16, head dim 128, split-k over the keys.
 * Style: request b owns pages kv_indices[kv_indptr[b]] .. kv_indices[kv_indptr[b+1]-1]
 * and its last page holds kv_last_page_len[b] tokens; the key count is built from named
 * int locals, one defined from another (npages, then kv_len), as FlashInfer's Python
 * reference computes it. Tabs, sm_scale computed before the region. */
#include <math.h>
#include <stdint.h>

#define PAGE 16
#define D 128

void batch_decode_paged(int batch, int H, int num_pages, int nnz_pages,
			const _Float16 q[batch][H][D],
			const _Float16 paged_k[num_pages][PAGE][H][D],
			const _Float16 paged_v[num_pages][PAGE][H][D],
			const int32_t kv_indptr[batch + 1], const int32_t kv_indices[nnz_pages],
			const int32_t kv_last_page_len[batch], _Float16 o[batch][H][D])
{
	const float sm_scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(batch_decode_paged) parallel(b, h) splitk(j)
	for (int b = 0; b < batch; b++)
		for (int h = 0; h < H; h++) {
			const int npages = kv_indptr[b + 1] - kv_indptr[b];
			const int kv_len = (npages - 1) * PAGE + kv_last_page_len[b];
			float m = -INFINITY, l = 0.0f;
			for (int j = 0; j < kv_len; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[b][h][d] *
					     (float)paged_k[kv_indices[kv_indptr[b] + j / PAGE]][j % PAGE][h][d];
				m = fmaxf(m, s * sm_scale);
			}
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < kv_len; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[b][h][d] *
					     (float)paged_k[kv_indices[kv_indptr[b] + j / PAGE]][j % PAGE][h][d];
				float p = expf(s * sm_scale - m);
				l += p;
				for (int d = 0; d < D; d++)
					acc[d] += p * (float)paged_v[kv_indices[kv_indptr[b] + j / PAGE]][j % PAGE][h][d];
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
