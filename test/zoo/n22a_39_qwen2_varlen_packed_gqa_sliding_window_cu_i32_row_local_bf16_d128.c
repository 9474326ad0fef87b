/* Qwen2 packed-sequence prefill (position_ids reset per sample, cu_seqlens int32), GQA by
 * h / (H / KVH), sliding window W on top of causal, window start clamped in a local. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void qwen2_varlen(int nseq, int total, int H, int KVH, int W, const int32_t cu_seqlens[nseq + 1],
		  const fusecc_bf16 q[total][H][128], const fusecc_bf16 k[total][KVH][128],
		  const fusecc_bf16 v[total][KVH][128], fusecc_bf16 o[total][H][128])
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(qwen2_varlen) parallel(s, i, h)
	for (int s = 0; s < nseq; s++)
		for (int i = 0; i < cu_seqlens[s + 1] - cu_seqlens[s]; i++)
			for (int h = 0; h < H; h++) {
				const int row0 = cu_seqlens[s];
				const int kvh = h / (H / KVH);
				int lo = i - W + 1;
				if (lo < 0) lo = 0;
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = lo; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < 128; d++)
						x += fusecc_bf16_to_float(q[row0 + i][h][d]) * fusecc_bf16_to_float(k[row0 + j][kvh][d]);
					x *= scale;
					float mn = fmaxf(m, x), c = expf(m - mn), p = expf(x - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[row0 + j][kvh][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[row0 + i][h][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
