/* dc_online_mneg1e30_l_one_splitk_d64_fp16: a hand-written online-softmax decode seeded
 * m = -1e30f, l = 1 (the seed's 1 vanishes by the first key's rescale), split-k over t. */
#include <math.h>
#define D 64
void dec(int B, int H, int T, float sc, const _Float16 q[B][H][D], const _Float16 k[B][H][T][D],
	 const _Float16 v[B][H][T][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(dec) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -1e30f, l = 1.0f, acc[D];
			for (int d = 0; d < D; d++) acc[d] = 0.0f;
			for (int t = 0; t < T; t++) {
				float x = 0.0f;
				for (int d = 0; d < D; d++) x += (float)q[b][h][d] * (float)k[b][h][t][d];
				x *= sc;
				float mn = fmaxf(m, x), al = expf(m - mn), p = expf(x - mn);
				l = l * al + p;
				for (int d = 0; d < D; d++) acc[d] = acc[d] * al + p * (float)v[b][h][t][d];
				m = mn;
			}
			for (int d = 0; d < D; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
