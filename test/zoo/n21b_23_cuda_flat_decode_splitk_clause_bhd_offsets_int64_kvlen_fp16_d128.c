/* Decode attention reference written by a CUDA programmer: flat pointers, offsets computed by
 * hand in int64, per-sequence kv length, split-k schedule asked for explicitly. */
#include <math.h>
#include <stdint.h>
#define HD 128

void decode_splitk(int B, int H, int L, const _Float16 *q, const _Float16 *kc, const _Float16 *vc,
		   const int *kv_len, _Float16 *o)
{
	const float sm_scale = 0.08838834764831845f;
#pragma fuse kernel(decode_splitk) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int64_t qo = ((int64_t)b * H + h) * HD;
			const int64_t ko = ((int64_t)b * H + h) * L * HD;
			const int n = kv_len[b];
			float m = -INFINITY, l = 0.0f;
			float acc[HD];
			for (int d = 0; d < HD; d++) acc[d] = 0.0f;
			for (int j = 0; j < n; j++) {
				float s = 0.0f;
				for (int d = 0; d < HD; d++) s += (float)q[qo + d] * (float)kc[ko + (int64_t)j * HD + d];
				s *= sm_scale;
				float mn = fmaxf(m, s);
				float a = expf(m - mn), p = expf(s - mn);
				l = l * a + p;
				for (int d = 0; d < HD; d++) acc[d] = acc[d] * a + p * (float)vc[ko + (int64_t)j * HD + d];
				m = mn;
			}
			for (int d = 0; d < HD; d++) o[qo + d] = (_Float16)(acc[d] / l);
		}
}
