/* causal, scores in a row array, the max seeded from s[0] after the score loop; bf16 */
#include <math.h>
#include <stddef.h>
#include "fusecc.h"
void causal_seed(int B, int H, int N, int D, const fusecc_bf16 *q, const fusecc_bf16 *k, const fusecc_bf16 *v, fusecc_bf16 *o)
{
	const float sc = 1.0f / sqrtf((float)D);
#pragma fuse kernel(causal_seed) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const fusecc_bf16 *qi = q + ((size_t)(b * H + h) * N + i) * D;
				float s[N];
				for (int j = 0; j <= i; j++) {
					const fusecc_bf16 *kj = k + ((size_t)(b * H + h) * N + j) * D;
					float t = 0.0f;
					for (int d = 0; d < D; d++) t += fusecc_bf16_to_float(qi[d]) * fusecc_bf16_to_float(kj[d]);
					s[j] = t * sc;
				}
				float m = s[0];
				for (int j = 1; j <= i; j++) m = s[j] > m ? s[j] : m;
				float l = 0.0f;
				for (int j = 0; j <= i; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < D; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) a += s[j] * fusecc_bf16_to_float(v[((size_t)(b * H + h) * N + j) * D + d]);
					o[((size_t)(b * H + h) * N + i) * D + d] = fusecc_float_to_bf16(a / l);
				}
			}
}
