/* KV-cache compression research code (SnapKV / H2O style): each head keeps its own number of cached
 * tokens, lens[b][h]; decode with split-k over the keys. */
#include <math.h>
#include <stdint.h>

void decode_per_head_len(int B, int H, int T, const int32_t lens[B][H], const _Float16 q[B][H][128],
			 const _Float16 k[B][H][T][128], const _Float16 v[B][H][T][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(decode_per_head_len) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128] = {0};
			for (int t = 0; t < lens[b][h]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k[b][h][t][d];
				s *= 0.08838834764831845f;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][h][t][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
