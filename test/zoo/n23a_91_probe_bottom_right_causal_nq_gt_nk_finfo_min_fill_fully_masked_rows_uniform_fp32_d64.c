/* Probe: HF-style masked_fill with torch.finfo(float32).min (-FLT_MAX), bottom-right causal
 * (query i at key position i + Nk - Nq) with more queries than keys, so the top
 * Nq - Nk rows see no key: every score of those rows is -FLT_MAX, and softmax gives them
 * the uniform average of all values (the well-known HF behaviour on padded rows). */
#include <math.h>
#include <float.h>

void br_causal_finfo(int B, int H, int Nq, int Nk, const float q[B][H][Nq][64], const float k[B][H][Nk][64],
		     const float v[B][H][Nk][64], float o[B][H][Nq][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(br_causal_finfo) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Nq; i++) {
				float s[Nk];
				float mx = -FLT_MAX;
				for (int j = 0; j < Nk; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 64; d++)
						dot += q[b][h][i][d] * k[b][h][j][d];
					s[j] = j > i + Nk - Nq ? -FLT_MAX : dot * scale;
					mx = fmaxf(mx, s[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < Nk; j++) {
					s[j] = expf(s[j] - mx);
					sum += s[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < Nk; j++)
						acc += s[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / sum;
				}
			}
}
