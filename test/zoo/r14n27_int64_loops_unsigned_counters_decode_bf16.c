/* Decode with int64_t batch/head loops and unsigned key counter, int64 offsets. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"
void dec64(int64_t B, int64_t H, int64_t L, const fusecc_bf16 *q, const fusecc_bf16 *k, const fusecc_bf16 *v, fusecc_bf16 *o)
{
#pragma fuse kernel(dec64) parallel(b, h) splitk(j)
	for (int64_t b = 0; b < B; b++)
		for (int64_t h = 0; h < H; h++) {
			const int64_t qo = (b * H + h) * 128;
			float m = -INFINITY;
			for (unsigned j = 0; j < L; j++) {
				float s = 0;
				for (unsigned d = 0; d < 128; d++)
					s += fusecc_bf16_to_float(q[qo + d]) * fusecc_bf16_to_float(k[((b * H + h) * L + j) * 128 + d]);
				m = fmaxf(m, s * 0.08838834764831845f);
			}
			float l = 0, acc[128] = {0};
			for (unsigned j = 0; j < L; j++) {
				float s = 0;
				for (unsigned d = 0; d < 128; d++)
					s += fusecc_bf16_to_float(q[qo + d]) * fusecc_bf16_to_float(k[((b * H + h) * L + j) * 128 + d]);
				float p = expf(s * 0.08838834764831845f - m);
				l += p;
				for (unsigned d = 0; d < 128; d++) acc[d] += p * fusecc_bf16_to_float(v[((b * H + h) * L + j) * 128 + d]);
			}
			for (unsigned d = 0; d < 128; d++) o[qo + d] = fusecc_float_to_bf16(acc[d] / l);
		}
}
