/* r15x03: a CUDA programmer's flat-pointer decode: const size_t offsets, no clause, fp16. */
#include <math.h>
#include <stddef.h>

void dec_flat(int B, int H, int L, int D, const _Float16 *q, const _Float16 *k, const _Float16 *v, _Float16 *o)
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(dec_flat)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const size_t q_off = ((size_t)b * H + h) * D;
			const size_t kv_off = ((size_t)b * H + h) * L * D;
			float m = -INFINITY, l = 0.0f;
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++) s += (float)q[q_off + d] * (float)k[kv_off + (size_t)t * D + d];
				m = fmaxf(m, s * scale);
			}
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++) s += (float)q[q_off + d] * (float)k[kv_off + (size_t)t * D + d];
				l += expf(s * scale - m);
			}
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int t = 0; t < L; t++) {
					float s = 0.0f;
					for (int e = 0; e < D; e++) s += (float)q[q_off + e] * (float)k[kv_off + (size_t)t * D + e];
					acc += expf(s * scale - m) * (float)v[kv_off + (size_t)t * D + d];
				}
				o[q_off + d] = (_Float16)(acc / l);
			}
		}
}
