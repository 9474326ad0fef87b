/* Whisper decoder cross-attention (openai/whisper model.py qkv_attention): q from the decoder
 * (T tokens), k/v from the encoder (S = 1500 frames typically), both q and k scaled by
 * D ** -0.25 before the dot, no mask; [B][H][T][64] and [B][H][S][64]. */
#include <math.h>

void whisper_cross(int B, int H, int T, int S, const _Float16 q[B][H][T][64], const _Float16 k[B][H][S][64],
		   const _Float16 v[B][H][S][64], _Float16 wv[B][H][T][64])
{
	const float scale = 0.35355339059327373f; /* 64 ** -0.25 */
#pragma fuse kernel(whisper_cross) parallel(b, h, t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < T; t++) {
				float qk[S];
				for (int s = 0; s < S; s++) {
					float dot = 0.0f;
					for (int d = 0; d < 64; d++)
						dot += ((float)q[b][h][t][d] * scale) * ((float)k[b][h][s][d] * scale);
					qk[s] = dot;
				}
				float mx = qk[0];
				for (int s = 1; s < S; s++) mx = fmaxf(mx, qk[s]);
				float tot = 0.0f;
				for (int s = 0; s < S; s++) { qk[s] = expf(qk[s] - mx); tot += qk[s]; }
				for (int s = 0; s < S; s++) qk[s] /= tot;
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int s = 0; s < S; s++) a += qk[s] * (float)v[b][h][s][d];
					wv[b][h][t][d] = (_Float16)a;
				}
			}
}
