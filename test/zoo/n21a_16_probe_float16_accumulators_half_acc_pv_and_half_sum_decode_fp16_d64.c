/* Probe: an fp16-minded port that keeps the sum and the P.V accumulator in _Float16 (as a
 * half-precision kernel would, rounding at every step); scores in float. The fused code must
 * keep the per-step fp16 rounding of the C (or be refused). */
#include <math.h>

void attn_half_acc(int B, int H, int S, const _Float16 q[B][H][64], const _Float16 k[B][H][S][64],
		   const _Float16 v[B][H][S][64], _Float16 o[B][H][64])
{
#pragma fuse kernel(attn_half_acc) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[S];
			float mx = -INFINITY;
			for (int j = 0; j < S; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				sc[j] = s * 0.125f;
				mx = fmaxf(mx, sc[j]);
			}
			_Float16 l = 0;
			for (int j = 0; j < S; j++) l += (_Float16)expf(sc[j] - mx);
			for (int d = 0; d < 64; d++) {
				_Float16 acc = 0;
				for (int j = 0; j < S; j++) acc += (_Float16)expf(sc[j] - mx) * v[b][h][j][d];
				o[b][h][d] = acc / l;
			}
		}
}
