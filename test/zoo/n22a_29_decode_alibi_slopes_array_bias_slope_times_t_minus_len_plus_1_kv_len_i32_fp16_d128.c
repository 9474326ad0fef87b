/* ALiBi at decode time (MPT / BLOOM with a KV cache): the bias is slope[h] * (t - (len - 1)) for the
 * query at the last position; slopes precomputed [H]; cache [B][H][T][D], lengths int32. */
#include <math.h>
#include <stdint.h>

void alibi_decode(int B, int H, int T, const float slopes[H], const int32_t lens[B], const _Float16 q[B][H][128],
		  const _Float16 k[B][H][T][128], const _Float16 v[B][H][T][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(alibi_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int L = lens[b];
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k[b][h][t][d];
				s = s * 0.08838834764831845f + slopes[h] * (float)(t - (L - 1));
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][h][t][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
