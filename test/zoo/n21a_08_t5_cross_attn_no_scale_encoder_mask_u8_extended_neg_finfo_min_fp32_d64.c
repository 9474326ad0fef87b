/* T5 decoder cross-attention (no 1/sqrt(d) scale: T5 folds it into the init), the encoder
 * attention_mask (uint8, 1 = keep) turned into the extended additive mask (1 - m) * finfo.min
 * as HF does, added to the scores; no position bias in cross-attention. */
#include <math.h>
#include <float.h>
#include <stdint.h>

void t5_cross(int B, int H, int T, int S, const float q[B][H][T][64], const float k[B][H][S][64],
	      const float v[B][H][S][64], const uint8_t enc_mask[B][S], float out[B][T][H][64])
{
#pragma fuse kernel(t5_cross) parallel(b, h, t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < T; t++) {
				float scores[S];
				for (int s = 0; s < S; s++) {
					float acc = 0.0f;
					for (int d = 0; d < 64; d++) acc += q[b][h][t][d] * k[b][h][s][d];
					scores[s] = acc + (1.0f - (float)enc_mask[b][s]) * -FLT_MAX;
				}
				float mx = -FLT_MAX;
				for (int s = 0; s < S; s++) mx = scores[s] > mx ? scores[s] : mx;
				float sum = 0.0f;
				for (int s = 0; s < S; s++) { scores[s] = expf(scores[s] - mx); sum += scores[s]; }
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int s = 0; s < S; s++) acc += scores[s] / sum * v[b][h][s][d];
					out[b][t][h][d] = acc;
				}
			}
}
