/* Probe: a log-prior added to the scores, s + logf(prior[b][j]), where a prior <= 0 gives NaN or
 * -inf; the max is taken with `>` (skips NaN), so the C's row is NaN wherever a NaN score enters
 * the sum. The fused code must give NaN rows where the C does. */
#include <math.h>

void attn_logprior(int B, int H, int S, const float prior[B][S], const float q[B][H][64], const float k[B][H][S][64],
		   const float v[B][H][S][64], float o[B][H][64])
{
#pragma fuse kernel(attn_logprior) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[S], m = -INFINITY;
			for (int j = 0; j < S; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][h][d] * k[b][h][j][d];
				sc[j] = s * 0.125f + logf(prior[b][j]);
				if (sc[j] > m) m = sc[j];
			}
			float l = 0.0f;
			for (int j = 0; j < S; j++) l += expf(sc[j] - m);
			for (int d = 0; d < 64; d++) {
				float acc = 0.0f;
				for (int j = 0; j < S; j++) acc += expf(sc[j] - m) * v[b][h][j][d];
				o[b][h][d] = acc / l;
			}
		}
}
