/* llama.cpp's rope "norm" mode (adjacent pairs) computed on the fly in a decode: theta =
 * pos * freq_base^(-2p/64) with powf, cosf and sinf in the region, for q at q_pos[b] and for each
 * cached key at its position j (keys were cached unrotated). */
#include <math.h>
#include <stdint.h>

void rope_decode(int B, int H, int S, float freq_base, const int32_t q_pos[B], const _Float16 q[B][H][64],
		 const _Float16 k[B][H][S][64], const _Float16 v[B][H][S][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(rope_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[64];
			for (int d = 0; d < 64; d++) acc[d] = 0.0f;
			for (int j = 0; j <= q_pos[b]; j++) {
				float s = 0.0f;
				for (int p = 0; p < 32; p++) {
					const float freq = powf(freq_base, -2.0f * p / 64.0f);
					const float tq = q_pos[b] * freq, tk = j * freq;
					const float q0 = (float)q[b][h][2 * p], q1 = (float)q[b][h][2 * p + 1];
					const float k0 = (float)k[b][h][j][2 * p], k1 = (float)k[b][h][j][2 * p + 1];
					const float a0 = q0 * cosf(tq) - q1 * sinf(tq), a1 = q0 * sinf(tq) + q1 * cosf(tq);
					const float b0 = k0 * cosf(tk) - k1 * sinf(tk), b1 = k0 * sinf(tk) + k1 * cosf(tk);
					s += a0 * b0 + a1 * b1;
				}
				s *= 0.125f;
				float mn = fmaxf(m, s), c = expf(m - mn), e = expf(s - mn);
				l = l * c + e;
				for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + e * (float)v[b][h][j][d];
				m = mn;
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
