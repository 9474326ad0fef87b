/* HPC decode: online softmax, the P.V update unrolled by hand by 2 (d += 2, two statements per
 * iteration), split-k over the cache, per-sequence lengths. */
#include <math.h>
#include <stdint.h>

void decode_unroll2(int B, int H, int T, const int32_t kv_len[B], const _Float16 q[B][H][128],
		    const _Float16 k[B][H][T][128], const _Float16 v[B][H][T][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(decode_unroll2) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int t = 0; t < kv_len[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k[b][h][t][d];
				s *= 0.08838834764831845f;
				const float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d += 2) {
					acc[d] = acc[d] * c + p * (float)v[b][h][t][d];
					acc[d + 1] = acc[d + 1] * c + p * (float)v[b][h][t][d + 1];
				}
				m = mn;
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
