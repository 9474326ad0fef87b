/* MQA decode (PaLM/Falcon-7B: one KV head) as a CUDA programmer writes the CPU reference: flat
 * pointers, size_t offsets, cache length L for all sequences; D=96; online softmax. */
#include <math.h>
#include <stddef.h>

void mqa_decode(int B, int H, int L, const _Float16 *q, const _Float16 *kcache, const _Float16 *vcache, _Float16 *out)
{
	const float scale = 0.10206207261596575f;
#pragma fuse kernel(mqa_decode) parallel(b, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const size_t qoff = ((size_t)b * H + h) * 96;
			const size_t kvoff = (size_t)b * L * 96;
			float m = -INFINITY, l = 0.0f, acc[96];
			for (int d = 0; d < 96; d++) acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 96; d++) s += (float)q[qoff + d] * (float)kcache[kvoff + (size_t)j * 96 + d];
				s *= scale;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 96; d++) acc[d] = acc[d] * c + p * (float)vcache[kvoff + (size_t)j * 96 + d];
				m = mn;
			}
			for (int d = 0; d < 96; d++) out[qoff + d] = (_Float16)(acc[d] / l);
		}
}
