/* Decode step of an inference engine in C: one query per (b, h), restrict pointers walked over the
 * cache (kp += HD; vp += HD), per-sequence kv_len, GQA by h / G, split-k over the keys. */
#include <math.h>
#define HD 128

void decode_step(int B, int H, int G, int MAXL, const int kv_len[B], const _Float16 *restrict q,
		 const _Float16 *restrict kcache, const _Float16 *restrict vcache, _Float16 *restrict out)
{
	const float scale = 0.08838834764831845f;
	const int KVH = H / G;
#pragma fuse kernel(decode_step) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const _Float16 *qh = q + (b * H + h) * HD;
			float logits[MAXL];
			float mx = -INFINITY;
			const _Float16 *kp = kcache + (b * KVH + h / G) * MAXL * HD;
			for (int t = 0; t < kv_len[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < HD; d++) s += (float)qh[d] * (float)kp[d];
				logits[t] = s * scale;
				mx = fmaxf(mx, logits[t]);
				kp += HD;
			}
			float sum = 0.0f;
			for (int t = 0; t < kv_len[b]; t++) { logits[t] = expf(logits[t] - mx); sum += logits[t]; }
			float acc[HD] = {0};
			const _Float16 *vp = vcache + (b * KVH + h / G) * MAXL * HD;
			for (int t = 0; t < kv_len[b]; t++) {
				for (int d = 0; d < HD; d++) acc[d] += logits[t] * (float)vp[d];
				vp += HD;
			}
			for (int d = 0; d < HD; d++) out[(b * H + h) * HD + d] = (_Float16)(acc[d] / sum);
		}
}
