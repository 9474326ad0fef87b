/* Paged GQA decode with the group loop inside the region body, not named: parallel(b, kh)
 * splitk(t); the pool flat with run-time page size, int32 block table, exp2f with log2(e)
 * folded into the scale, online softmax per query head kept in arrays over g. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
#define D 128
#define GMAX 8

void paged_gqa(int B, int KH, int G, int PS, int MP, const fusecc_bf16 *q, const fusecc_bf16 *kpool,
	       const fusecc_bf16 *vpool, const int32_t bt[B][MP], const int32_t ctx[B], fusecc_bf16 *out)
{
	const float c = 0.08838834764831845f * 1.4426950408889634f;
#pragma fuse kernel(paged_gqa) parallel(b, kh) splitk(t)
	for (int b = 0; b < B; b++)
		for (int kh = 0; kh < KH; kh++)
			for (int g = 0; g < G; g++) {
				const int hq = kh * G + g;
				float mx = -INFINITY;
				for (int t = 0; t < ctx[b]; t++) {
					const int64_t row = ((int64_t)bt[b][t / PS] * PS + t % PS) * KH + kh;
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(q[((int64_t)b * KH * G + hq) * D + d]) * fusecc_bf16_to_float(kpool[row * D + d]);
					mx = fmaxf(mx, s * c);
				}
				float l = 0.0f, acc[D];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				for (int t = 0; t < ctx[b]; t++) {
					const int64_t row = ((int64_t)bt[b][t / PS] * PS + t % PS) * KH + kh;
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += fusecc_bf16_to_float(q[((int64_t)b * KH * G + hq) * D + d]) * fusecc_bf16_to_float(kpool[row * D + d]);
					const float p = exp2f(s * c - mx);
					l += p;
					for (int d = 0; d < D; d++) acc[d] += p * fusecc_bf16_to_float(vpool[row * D + d]);
				}
				for (int d = 0; d < D; d++) out[((int64_t)b * KH * G + hq) * D + d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
