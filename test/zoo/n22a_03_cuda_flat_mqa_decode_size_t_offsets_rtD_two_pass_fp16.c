/* A CUDA programmer's host reference for a multi-query decode (one KV head shared by all heads, as
 * in PaLM / Falcon-7B): flat pointers, size_t offsets computed by hand, run-time head dim. */
#include <math.h>
#include <stddef.h>

void mqa_decode_ref(int B, int H, int T, int D, const _Float16 *q, const _Float16 *kcache, const _Float16 *vcache,
		    _Float16 *out)
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(mqa_decode_ref) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const size_t qoff = ((size_t)b * H + h) * D;
			const size_t kvoff = (size_t)b * T * D;
			float mx = -INFINITY;
			for (int t = 0; t < T; t++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[qoff + d] * (float)kcache[kvoff + (size_t)t * D + d];
				mx = fmaxf(mx, s * scale);
			}
			float sum = 0.0f;
			for (int t = 0; t < T; t++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[qoff + d] * (float)kcache[kvoff + (size_t)t * D + d];
				sum += expf(s * scale - mx);
			}
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int t = 0; t < T; t++) {
					float s = 0.0f;
					for (int e = 0; e < D; e++)
						s += (float)q[qoff + e] * (float)kcache[kvoff + (size_t)t * D + e];
					acc += expf(s * scale - mx) * (float)vcache[kvoff + (size_t)t * D + d];
				}
				out[qoff + d] = (_Float16)(acc / sum);
			}
		}
}
