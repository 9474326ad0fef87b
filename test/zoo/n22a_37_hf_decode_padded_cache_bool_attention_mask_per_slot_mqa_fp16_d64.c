/* HF generate() decode step with a left-padded static cache: attention_mask [B][T] as bool (True =
 * real token), one shared KV head (MQA, e.g. StarCoder / Falcon-7B). */
#include <math.h>
#include <stdbool.h>

void mqa_decode_masked(int B, int H, int T, const _Float16 q[B][H][64], const _Float16 k[B][T][64],
		       const _Float16 v[B][T][64], const _Bool attention_mask[B][T], _Float16 o[B][H][64])
{
#pragma fuse kernel(mqa_decode_masked)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float w[T];
			float mx = -INFINITY;
			for (int t = 0; t < T; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][t][d];
				w[t] = attention_mask[b][t] ? s * 0.125f : -INFINITY;
				mx = fmaxf(mx, w[t]);
			}
			float z = 0.0f;
			for (int t = 0; t < T; t++) {
				w[t] = expf(w[t] - mx);
				z += w[t];
			}
			for (int d = 0; d < 64; d++) {
				float r = 0.0f;
				for (int t = 0; t < T; t++) r += w[t] * (float)v[b][t][d];
				o[b][h][d] = (_Float16)(r / z);
			}
		}
}
