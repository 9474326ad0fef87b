/* Probe: the denominator starts from a float parameter (`float l = extra_mass;`, an "attention to
 * nothing" constant the caller supplies), the max from -inf; so l = extra + sum exp(s - m). */
#include <math.h>

void attn_extra(int B, int H, int S, float extra_mass, const float q[B][H][64], const float k[B][H][S][64],
		const float v[B][H][S][64], float o[B][H][64])
{
#pragma fuse kernel(attn_extra) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[S], m = -INFINITY;
			for (int j = 0; j < S; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][h][d] * k[b][h][j][d];
				sc[j] = s * 0.125f;
				m = fmaxf(m, sc[j]);
			}
			float l = extra_mass;
			for (int j = 0; j < S; j++) l += expf(sc[j] - m);
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < S; j++) acc += expf(sc[j] - m) * v[b][h][j][d];
				o[b][h][d] = acc / l;
			}
		}
}
