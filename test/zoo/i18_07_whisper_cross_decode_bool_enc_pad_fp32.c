/* Whisper-like decoder cross-attention for one new token per sequence: keys are the encoder
 * frames, some padded (_Bool enc_pad[B][T], true = padding), masked with -INFINITY; fp32
 * throughout, run-time head size, scale applied to q first (as the HF code does). */
#include <math.h>
#include <stdbool.h>

void cross_decode(int B, int H, int T, int Dh, const bool enc_pad[B][T], const float q[B][H][Dh],
		  const float k[B][H][T][Dh], const float v[B][H][T][Dh], float out[B][H][Dh])
{
	const float scaling = 1.0f / sqrtf((float)Dh);
#pragma fuse kernel(cross_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float qs[Dh];
			for (int d = 0; d < Dh; d++) qs[d] = q[b][h][d] * scaling;
			float w[T];
			float wmax = -INFINITY;
			for (int t = 0; t < T; t++) {
				float s = 0.0f;
				for (int d = 0; d < Dh; d++) s += qs[d] * k[b][h][t][d];
				w[t] = enc_pad[b][t] ? -INFINITY : s;
				wmax = fmaxf(wmax, w[t]);
			}
			float wsum = 0.0f;
			for (int t = 0; t < T; t++) {
				w[t] = expf(w[t] - wmax);
				wsum += w[t];
			}
			for (int d = 0; d < Dh; d++) {
				float a = 0.0f;
				for (int t = 0; t < T; t++) a += w[t] / wsum * v[b][h][t][d];
				out[b][h][d] = a;
			}
		}
}
