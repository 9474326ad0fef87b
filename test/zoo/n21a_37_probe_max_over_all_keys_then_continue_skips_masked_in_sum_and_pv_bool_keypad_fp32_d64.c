/* Probe: the scores and the max are taken over every key, masked or not; the masked keys are then
 * skipped with `continue` in the sum and in the P.V. Softmax is shift-invariant unless a masked
 * key's score exceeds the kept ones by > 88: then the C underflows (0/0 = NaN or lost digits),
 * which the fused code must reproduce by subtracting the same max. */
#include <math.h>
#include <stdbool.h>

void attn_maskskip(int B, int H, int S, const bool keep[B][S], const float q[B][H][64], const float k[B][H][S][64],
		   const float v[B][H][S][64], float o[B][H][64])
{
#pragma fuse kernel(attn_maskskip) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[S], m = -INFINITY;
			for (int j = 0; j < S; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][h][d] * k[b][h][j][d];
				sc[j] = s * 0.125f;
				m = fmaxf(m, sc[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < S; j++) {
				if (!keep[b][j]) continue;
				l += expf(sc[j] - m);
			}
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < S; j++) {
					if (!keep[b][j]) continue;
					acc += expf(sc[j] - m) * v[b][h][j][d];
				}
				o[b][h][d] = acc / l;
			}
		}
}
