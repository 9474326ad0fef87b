/* Whisper-like decoder cross-attention: keys are the encoder frames, valid up to enc_len[b]
 * (int64) and additionally filtered by a uint8 frame mask (0 = dropped); D = 64; fp16. */
#include <math.h>
#include <stdint.h>

void cross_attn(int B, int H, int T, int S, const int64_t enc_len[B], const uint8_t frame_mask[B][S],
		const _Float16 q[B][H][T][64], const _Float16 k[B][H][S][64], const _Float16 v[B][H][S][64],
		_Float16 o[B][H][T][64])
{
#pragma fuse kernel(cross_attn) parallel(b, h, t) rolling(s)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < T; t++) {
				float mx = -INFINITY;
				for (int s = 0; s < enc_len[b]; s++) {
					if (!frame_mask[b][s]) continue;
					float a = 0.0f;
					for (int d = 0; d < 64; d++) a += (float)q[b][h][t][d] * (float)k[b][h][s][d];
					mx = fmaxf(mx, a * 0.125f);
				}
				float l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int s = 0; s < enc_len[b]; s++) {
					if (!frame_mask[b][s]) continue;
					float a = 0.0f;
					for (int d = 0; d < 64; d++) a += (float)q[b][h][t][d] * (float)k[b][h][s][d];
					const float p = expf(a * 0.125f - mx);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][s][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][t][d] = (_Float16)(acc[d] / l);
			}
}
