/* A CUDA programmer's CPU reference for a varlen kernel launched over max_seqlen: the
 * query and key loops run to max_seqlen and break once past the sequence's length
 * (seqlen = cu_seqlens[b + 1] - cu_seqlens[b]); packed (total, H, 128) tensors, GQA by
 * h / (H / KVH), causal. Rows past the length are not written. bf16. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void varlen_fwd_ref(int batch, int total, int H, int KVH, int max_seqlen, const int32_t cu_seqlens[batch + 1],
		    const fusecc_bf16 q[total][H][128], const fusecc_bf16 k[total][KVH][128],
		    const fusecc_bf16 v[total][KVH][128], fusecc_bf16 o[total][H][128])
{
	const float scale = 0.088388347648f;
#pragma fuse kernel(varlen_fwd_ref) parallel(b, h, i) rolling(j)
	for (int b = 0; b < batch; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < max_seqlen; i++) {
				const int start = cu_seqlens[b];
				const int seqlen = cu_seqlens[b + 1] - start;
				if (i >= seqlen)
					break;
				const int kh = h / (H / KVH);
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j < max_seqlen; j++) {
					if (j > i)
						break;
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[start + i][h][d]) * fusecc_bf16_to_float(k[start + j][kh][d]);
					s *= scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[start + j][kh][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					o[start + i][h][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
