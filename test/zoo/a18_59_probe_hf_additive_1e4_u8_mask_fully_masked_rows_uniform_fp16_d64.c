/* Probe: HuggingFace's old additive mask (1 - mask) * -10000 from a uint8 attention_mask. A row
 * whose keys are all padded is NOT empty in C: every score is shifted by -10000 alike and the
 * softmax is the plain one over all keys. A kernel that skips key steps the mask "hides" would
 * return NaN or 0 there. */
#include <math.h>
#include <stdint.h>

void hf_additive(int B, int H, int N, const uint8_t attention_mask[B][N], const _Float16 q[B][H][N][64],
		 const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(hf_additive) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N], m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = x * 0.125f + (1.0f - (float)attention_mask[b][j]) * -10000.0f;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a / l);
				}
			}
}
