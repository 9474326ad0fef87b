/* T5 decoder self-attention decode step with a precomputed position bias row
 * position_bias[H][L] for the current step (no scale, as T5 does), split-k clause, fp32. */
#include <math.h>

void t5_decode(int B, int H, int L, const float position_bias[H][L], const float q[B][H][64],
	       const float k[B][H][L][64], const float v[B][H][L][64], float o[B][H][64])
{
#pragma fuse kernel(t5_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float scores[L];
			float mx = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = position_bias[h][j];
				for (int d = 0; d < 64; d++) s += q[b][h][d] * k[b][h][j][d];
				scores[j] = s;
				mx = fmaxf(mx, s);
			}
			float sum = 0.0f;
			for (int j = 0; j < L; j++) sum += expf(scores[j] - mx);
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++) acc += expf(scores[j] - mx) / sum * v[b][h][j][d];
				o[b][h][d] = acc;
			}
		}
}
