/* Varlen with int64 offsets, as PyTorch passes cu_seqlens: the row's start and end are
 * locals of the row's body, the loop runs to max_seqlen and breaks past end - start. Full
 * (bidirectional) attention within each sequence; bf16, d = 128. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void varlen_bidir(int nb, int total, int nh, int max_seqlen, const int64_t cu_seqlens[nb + 1],
		  const fusecc_bf16 q[total][nh][128], const fusecc_bf16 k[total][nh][128],
		  const fusecc_bf16 v[total][nh][128], fusecc_bf16 o[total][nh][128])
{
	const float scale = 1.0f / sqrtf(128.0f);
#pragma fuse kernel(varlen_bidir) parallel(b, h, r)
	for (int b = 0; b < nb; b++)
		for (int h = 0; h < nh; h++)
			for (int r = 0; r < max_seqlen; r++) {
				const int64_t start = cu_seqlens[b];
				const int64_t end = cu_seqlens[b + 1];
				if (r >= end - start)
					break;
				float mx = -INFINITY;
				for (int c = 0; c < end - start; c++) {
					float dot = 0.0f;
					for (int d = 0; d < 128; d++)
						dot += fusecc_bf16_to_float(q[start + r][h][d]) * fusecc_bf16_to_float(k[start + c][h][d]);
					mx = fmaxf(mx, dot * scale);
				}
				float den = 0.0f, acc[128] = {0};
				for (int c = 0; c < end - start; c++) {
					float dot = 0.0f;
					for (int d = 0; d < 128; d++)
						dot += fusecc_bf16_to_float(q[start + r][h][d]) * fusecc_bf16_to_float(k[start + c][h][d]);
					float p = expf(dot * scale - mx);
					den += p;
					for (int d = 0; d < 128; d++)
						acc[d] += p * fusecc_bf16_to_float(v[start + c][h][d]);
				}
				for (int d = 0; d < 128; d++)
					o[start + r][h][d] = fusecc_float_to_bf16(acc[d] / den);
			}
}
