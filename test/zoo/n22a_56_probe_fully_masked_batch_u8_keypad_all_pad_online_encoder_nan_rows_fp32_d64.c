/* PROBE: key-padding mask (uint8, 1 = keep) where a whole sequence may be padding: the reference's
 * online softmax then gives NaN (m stays -inf, exp(-inf - -inf)); the fused code must do the same
 * (or at least not give numbers where C gives NaN for the other rows). */
#include <math.h>
#include <stdint.h>

void enc_keypad(int B, int H, int N, const uint8_t keep[B][N], const float q[B][H][N][64], const float k[B][H][N][64],
		const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(enc_keypad) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					s = keep[b][j] ? s * 0.125f : -INFINITY;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / l;
			}
}
