/* Varlen prefill with separate query and key offsets (cu_seqlens_q, cu_seqlens_k int64), a
 * query shorter than its keys (chunked prefill), bottom-right causal j <= i + (lk - lq).
 * CUDA programmer's C: flat pointers, row strides passed in (q_row_stride = H * 64), size_t
 * offsets computed by hand. fp16, D = 64. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

void varlen_fwd(int NSEQ, int TQ, int TK, int H, const int64_t *cu_seqlens_q, const int64_t *cu_seqlens_k,
		const _Float16 q[TQ * H * 64], const _Float16 k[TK * H * 64], const _Float16 v[TK * H * 64], _Float16 o[TQ * H * 64])
{
	const float scale = 0.125f;
#pragma fuse kernel(varlen_fwd) parallel(s, h, i) rolling(j)
	for (int s = 0; s < NSEQ; s++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < cu_seqlens_q[s + 1] - cu_seqlens_q[s]; i++) {
				const int64_t lq = cu_seqlens_q[s + 1] - cu_seqlens_q[s];
				const int64_t lk = cu_seqlens_k[s + 1] - cu_seqlens_k[s];
				const size_t qoff = ((size_t)(cu_seqlens_q[s] + i) * H + h) * 64;
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int64_t j = 0; j < lk; j++) {
					if (j > i + (lk - lq)) break;
					const size_t koff = ((size_t)(cu_seqlens_k[s] + j) * H + h) * 64;
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += (float)q[qoff + d] * (float)k[koff + d];
					x *= scale;
					float mn = x > m ? x : m;
					float a = expf(m - mn), p = expf(x - mn);
					l = l * a + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * a + p * (float)v[koff + d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[qoff + d] = (_Float16)(acc[d] / l);
			}
}
