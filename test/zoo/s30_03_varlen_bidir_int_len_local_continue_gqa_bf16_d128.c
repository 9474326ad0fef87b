/* Bidirectional varlen attention (an encoder over packed sequences), padded to max_seqlen
 * rows per sequence in the loop: the start and length are plain int locals of the row's
 * body and rows past the length are skipped with `continue`. GQA, bf16, d = 128. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void varlen_encoder(int nseq, int total, int H, int KVH, int max_seqlen, float scale, const int32_t cu_seqlens[nseq + 1],
		    const fusecc_bf16 q[total][H][128], const fusecc_bf16 k[total][KVH][128], const fusecc_bf16 v[total][KVH][128],
		    fusecc_bf16 o[total][H][128])
{
#pragma fuse kernel(varlen_encoder) parallel(s, h, i) rolling(j)
	for (int s = 0; s < nseq; s++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < max_seqlen; i++) {
				int start = cu_seqlens[s];
				int len = cu_seqlens[s + 1] - start;
				if (i >= len)
					continue;
				int kh = h / (H / KVH);
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < len; j++) {
					float x = 0.0f;
					for (int d = 0; d < 128; d++)
						x += fusecc_bf16_to_float(q[start + i][h][d]) * fusecc_bf16_to_float(k[start + j][kh][d]);
					x *= scale;
					float mn = fmaxf(m, x);
					float a = expf(m - mn), p = expf(x - mn);
					l = l * a + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * a + p * fusecc_bf16_to_float(v[start + j][kh][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++)
					o[start + i][h][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
