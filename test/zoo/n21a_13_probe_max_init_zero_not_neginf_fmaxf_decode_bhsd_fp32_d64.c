/* Probe: a student initialises the running max to 0 instead of -inf (`float m = 0.0f`). In C the
 * max is then max(0, scores): when every score of a row is below -88 the exponentials underflow
 * and the row is 0/0 = NaN; otherwise the result equals softmax. The fused code must keep that. */
#include <math.h>

void attn_m0(int B, int H, int S, const float q[B][H][64], const float k[B][H][S][64],
	     const float v[B][H][S][64], float o[B][H][64])
{
#pragma fuse kernel(attn_m0) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[S];
			for (int j = 0; j < S; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][h][d] * k[b][h][j][d];
				sc[j] = s * 0.125f;
			}
			float m = 0.0f;
			for (int j = 0; j < S; j++) m = fmaxf(m, sc[j]);
			float l = 0.0f;
			for (int j = 0; j < S; j++) l += expf(sc[j] - m);
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < S; j++) acc += expf(sc[j] - m) * v[b][h][j][d];
				o[b][h][d] = acc / l;
			}
		}
}
