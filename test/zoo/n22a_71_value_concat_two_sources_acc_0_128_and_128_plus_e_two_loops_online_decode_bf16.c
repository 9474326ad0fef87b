/* A decode whose value row is the concatenation of two caches (a shared 128-wide part and a 64-wide
 * per-layer adapter part), written without torch.cat: acc[0..128) from v_a, acc[128..192) from v_b,
 * two loops in the online update. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void decode_vcat(int B, int H, int T, const int32_t lens[B], const fusecc_bf16 q[B][H][128], const fusecc_bf16 k[B][H][T][128],
		 const fusecc_bf16 v_a[B][H][T][128], const fusecc_bf16 v_b[B][H][T][64], float o[B][H][192])
{
#pragma fuse kernel(decode_vcat) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[192];
			for (int d = 0; d < 192; d++) acc[d] = 0.0f;
			for (int t = 0; t < lens[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++)
					s += fusecc_bf16_to_float(q[b][h][d]) * fusecc_bf16_to_float(k[b][h][t][d]);
				s *= 0.08838834764831845f;
				const float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v_a[b][h][t][d]);
				for (int e = 0; e < 64; e++) acc[128 + e] = acc[128 + e] * c + p * fusecc_bf16_to_float(v_b[b][h][t][e]);
				m = mn;
			}
			for (int d = 0; d < 192; d++) o[b][h][d] = acc[d] / l;
		}
}
