/* One new token per sequence against a packed (unpadded) KV: flash_attn_varlen_func with
 * cu_seqlens_k int64 and max_seqlen_q = 1, written by a CUDA programmer with flat pointers and
 * size_t offsets: k[(cu_seqlens_k[b] + j) * H * D + h * D + d]. */
#include <math.h>
#include <stdint.h>
#include <stddef.h>

void varlen_decode(int B, int H, int D, int total_k, const float *q, const float *k, const float *v,
		const int64_t cu_seqlens_k[B + 1], float softmax_scale, float *out)
{
#pragma fuse kernel(varlen_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++) {
		for (int h = 0; h < H; h++) {
			const size_t qoff = ((size_t)b * H + h) * D;
			const int64_t k0 = cu_seqlens_k[b];
			const int64_t klen = cu_seqlens_k[b + 1] - cu_seqlens_k[b];
			float row_max = -INFINITY, row_sum = 0.0f;
			float o_acc[D];
			for (int d = 0; d < D; d++) o_acc[d] = 0.0f;
			for (int64_t j = 0; j < klen; j++) {
				const size_t koff = ((size_t)(k0 + j) * H + h) * D;
				float s = 0.0f;
				for (int d = 0; d < D; d++) s += q[qoff + d] * k[koff + d];
				s *= softmax_scale;
				const float new_max = fmaxf(row_max, s);
				const float alpha = expf(row_max - new_max);
				const float p = expf(s - new_max);
				row_sum = row_sum * alpha + p;
				for (int d = 0; d < D; d++) o_acc[d] = o_acc[d] * alpha + p * v[koff + d];
				row_max = new_max;
			}
			for (int d = 0; d < D; d++) out[qoff + d] = o_acc[d] / row_sum;
		}
	}
}
