/* FlashInfer batch decode with a paged KV cache in NHD layout ([num_pages][page_size][H][D]), CSR
 * page lists (kv_indptr, kv_indices) and kv_last_page_len; the sequence length is
 * (num_pages_of_seq - 1) * page_size + last_page_len. Written from the FlashInfer docs. */
#include <math.h>
#include <stdint.h>

void flashinfer_decode(int batch, int H, int page_size, int num_pages, int nnz, float sm_scale,
		       const _Float16 q[batch][H][128], const _Float16 k_data[num_pages][page_size][H][128],
		       const _Float16 v_data[num_pages][page_size][H][128], const int32_t kv_indptr[batch + 1],
		       const int32_t kv_indices[nnz], const int32_t kv_last_page_len[batch], _Float16 o[batch][H][128])
{
#pragma fuse kernel(flashinfer_decode) parallel(b, h)
	for (int b = 0; b < batch; b++)
		for (int h = 0; h < H; h++) {
			const int first = kv_indptr[b];
			const int len = (kv_indptr[b + 1] - first - 1) * page_size + kv_last_page_len[b];
			float m = -INFINITY, d_sum = 0.0f, acc[128];
			for (int e = 0; e < 128; e++) acc[e] = 0.0f;
			for (int t = 0; t < len; t++) {
				const int page = kv_indices[first + t / page_size];
				const int entry = t % page_size;
				float s = 0.0f;
				for (int e = 0; e < 128; e++) s += (float)q[b][h][e] * (float)k_data[page][entry][h][e];
				s *= sm_scale;
				const float m_prev = m;
				m = fmaxf(m, s);
				const float r = expf(m_prev - m), p = expf(s - m);
				d_sum = d_sum * r + p;
				for (int e = 0; e < 128; e++) acc[e] = acc[e] * r + p * (float)v_data[page][entry][h][e];
			}
			for (int e = 0; e < 128; e++) o[b][h][e] = (_Float16)(acc[e] / d_sum);
		}
}
