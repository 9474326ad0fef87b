/* CUDA-minded decode: flat pointers, int64 offsets, GQA by a group loop in parallel(...),
 * kv lengths int32, split-k. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void decode_flat(int B, int HKV, int G, int L, float scale, const int32_t lens[B],
		 const fusecc_bf16 *q, const fusecc_bf16 *kc, const fusecc_bf16 *vc, fusecc_bf16 *o)
{
#pragma fuse kernel(decode_flat) parallel(b, hk, g) splitk(t)
	for (int b = 0; b < B; b++)
		for (int hk = 0; hk < HKV; hk++)
			for (int g = 0; g < G; g++) {
				const int64_t qoff = ((int64_t)b * HKV * G + (int64_t)hk * G + g) * 128;
				const int64_t koff = ((int64_t)b * HKV + hk) * L * 128;
				float mx = -INFINITY;
				for (int t = 0; t < lens[b]; t++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[qoff + d]) * fusecc_bf16_to_float(kc[koff + (int64_t)t * 128 + d]);
					mx = fmaxf(mx, s * scale);
				}
				float den = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int t = 0; t < lens[b]; t++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[qoff + d]) * fusecc_bf16_to_float(kc[koff + (int64_t)t * 128 + d]);
					const float p = expf(s * scale - mx);
					den += p;
					for (int d = 0; d < 128; d++) acc[d] += p * fusecc_bf16_to_float(vc[koff + (int64_t)t * 128 + d]);
				}
				for (int d = 0; d < 128; d++) o[qoff + d] = fusecc_float_to_bf16(acc[d] / den);
			}
}
