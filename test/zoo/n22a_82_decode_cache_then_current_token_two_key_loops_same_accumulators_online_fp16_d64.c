/* A decode step that does not write the current token into the cache first: the online softmax runs
 * over the T cached keys, then takes the current token's own key/value (k_cur, v_cur) as one more step,
 * into the same m, l, acc (GPT-2 incremental decoding without torch.cat). */
#include <math.h>

void decode_cache_plus_cur(int B, int H, int T, const _Float16 q[B][H][64], const _Float16 kc[B][H][T][64],
			   const _Float16 vc[B][H][T][64], const _Float16 k_cur[B][H][64], const _Float16 v_cur[B][H][64],
			   _Float16 o[B][H][64])
{
#pragma fuse kernel(decode_cache_plus_cur) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[64] = {0};
			for (int t = 0; t < T; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)kc[b][h][t][d];
				s *= 0.125f;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)vc[b][h][t][d];
				m = mn;
			}
			float s = 0.0f;
			for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k_cur[b][h][d];
			s *= 0.125f;
			float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
			l = l * c + p;
			for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v_cur[b][h][d];
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
