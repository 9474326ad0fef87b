/* HF eager's softmax(dtype=float32).to(fp16) before P.V, in a decode (from n23a_25): the
 * normalised probability e / sum is rounded to fp16, then multiplied by v. The fused C
 * rounds the unnormalised e and divides by the sum after the loop (a different rounding
 * point; on random inputs the outputs agree to 1e-7, the harness cannot tell them apart). */
#include <math.h>

void decode_probs_half(int B, int H, int L, const _Float16 q[B][H][64], const _Float16 k[B][H][L][64],
		       const _Float16 v[B][H][L][64], float o[B][H][64])
{
#pragma fuse kernel(decode_probs_half) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float w[L];
			float mx = -INFINITY;
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < 64; d++)
					dot += (float)q[b][h][d] * (float)k[b][h][j][d];
				w[j] = dot * 0.125f;
				mx = fmaxf(mx, w[j]);
			}
			float sum = 0.0f;
			for (int j = 0; j < L; j++) {
				w[j] = expf(w[j] - mx);
				sum += w[j];
			}
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++)
					acc += (float)(_Float16)(w[j] / sum) * (float)v[b][h][j][d];
				o[b][h][d] = acc;
			}
		}
}
