/* Varlen prefill over absolute token rows t in [cu[s], cu[s+1]), int64 offsets, keys u from the
 * sequence start to t (causal), GQA by h / G, flat packed arrays [TOTAL * H * 128]. bf16. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void varlen_abs(int S, int TOTAL, int H, int G, const int64_t cu[S + 1], const fusecc_bf16 q[TOTAL * H * 128],
		const fusecc_bf16 k[TOTAL * (H / G) * 128], const fusecc_bf16 v[TOTAL * (H / G) * 128],
		fusecc_bf16 o[TOTAL * H * 128])
{
	const int KH = H / G;
#pragma fuse kernel(varlen_abs) parallel(s, h, t) rolling(u)
	for (int s = 0; s < S; s++)
		for (int h = 0; h < H; h++)
			for (int64_t t = cu[s]; t < cu[s + 1]; t++) {
				const int kh = h / G;
				float m = -INFINITY, l = 0.0f;
				float acc[128] = {0};
				for (int64_t u = cu[s]; u <= t; u++) {
					float x = 0.0f;
					for (int d = 0; d < 128; d++)
						x += fusecc_bf16_to_float(q[(t * H + h) * 128 + d]) * fusecc_bf16_to_float(k[(u * KH + kh) * 128 + d]);
					m = fmaxf(m, x * 0.08838834764831845f);
				}
				for (int64_t u = cu[s]; u <= t; u++) {
					float x = 0.0f;
					for (int d = 0; d < 128; d++)
						x += fusecc_bf16_to_float(q[(t * H + h) * 128 + d]) * fusecc_bf16_to_float(k[(u * KH + kh) * 128 + d]);
					float p = expf(x * 0.08838834764831845f - m);
					l += p;
					for (int d = 0; d < 128; d++) acc[d] += p * fusecc_bf16_to_float(v[(u * KH + kh) * 128 + d]);
				}
				for (int d = 0; d < 128; d++) o[(t * H + h) * 128 + d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
