/* n05_varlen_absrows_causal_bf16.c: varlen causal prefill over a packed batch (sequence s
 * owns token rows cu[s] .. cu[s+1]-1), bf16, head dim 128.
 * Style: absolute token rows, as a reference loop over the packed tensor is written:
 * `for (t = cu[s]; t < cu[s + 1]; t++)` and causal keys `for (u = cu[s]; u <= t; u++)`;
 * bf16 read and written through the fusecc helpers. Tabs. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

#define HD 128

void varlen_abs_rows(int nseq, int ntok, int H, const int32_t cu[nseq + 1],
		     const fusecc_bf16 q[ntok][H][HD], const fusecc_bf16 k[ntok][H][HD],
		     const fusecc_bf16 v[ntok][H][HD], fusecc_bf16 o[ntok][H][HD])
{
	const float sc = 1.0f / sqrtf((float)HD);
#pragma fuse kernel(varlen_abs_rows) parallel(s, h, t) rolling(u)
	for (int s = 0; s < nseq; s++)
		for (int h = 0; h < H; h++)
			for (int t = cu[s]; t < cu[s + 1]; t++) {
				float mx = -INFINITY;
				for (int u = cu[s]; u <= t; u++) {
					float a = 0.0f;
					for (int d = 0; d < HD; d++)
						a += fusecc_bf16_to_float(q[t][h][d]) * fusecc_bf16_to_float(k[u][h][d]);
					mx = fmaxf(mx, a * sc);
				}
				float sum = 0.0f, acc[HD];
				for (int d = 0; d < HD; d++)
					acc[d] = 0.0f;
				for (int u = cu[s]; u <= t; u++) {
					float a = 0.0f;
					for (int d = 0; d < HD; d++)
						a += fusecc_bf16_to_float(q[t][h][d]) * fusecc_bf16_to_float(k[u][h][d]);
					float p = expf(a * sc - mx);
					sum += p;
					for (int d = 0; d < HD; d++)
						acc[d] += p * fusecc_bf16_to_float(v[u][h][d]);
				}
				for (int d = 0; d < HD; d++)
					o[t][h][d] = fusecc_float_to_bf16(acc[d] / sum);
			}
}
