/* A C programmer's batched decode: batch walked by a while loop, heads by an unsigned count-down (h-- > 0),
 * size_t offsets into flat buffers, scores in a malloc'd row, two-pass softmax, fp16. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
void decode_c(unsigned B, unsigned H, unsigned L, const _Float16 *q, const _Float16 *kc, const _Float16 *vc, _Float16 *out)
{
	const float scale = 0.08838834764831845f;
#pragma fuse kernel(decode_c) parallel(b, h)
	for (unsigned b = 0; b < B; b++)
		for (unsigned h = H; h-- > 0;) {
			const size_t qo = ((size_t)b * H + h) * 128;
			float *att = malloc(sizeof(float) * L);
			float m = -INFINITY;
			for (unsigned t = 0; t < L; t++) {
				const size_t ko = (((size_t)b * H + h) * L + t) * 128;
				float s = 0.0f;
				for (unsigned d = 0; d < 128; d++) s += (float)q[qo + d] * (float)kc[ko + d];
				att[t] = s * scale;
				if (att[t] > m) m = att[t];
			}
			float z = 0.0f;
			for (unsigned t = 0; t < L; t++) { att[t] = expf(att[t] - m); z += att[t]; }
			for (unsigned d = 0; d < 128; d++) {
				float a = 0.0f;
				for (unsigned t = 0; t < L; t++) a += att[t] * (float)vc[(((size_t)b * H + h) * L + t) * 128 + d];
				out[qo + d] = (_Float16)(a / z);
			}
			free(att);
		}
}
