/* A small library file with both entry points, as a port of one model layer keeps them: the
 * prefill (causal) and the decode step (against the cache with per-sequence lengths), #define D. */
#include <math.h>
#include <stdint.h>
#define D 64
#define SCALE 0.125f

void layer_prefill(int B, int H, int N, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		   const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(layer_prefill) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[D] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= SCALE;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < D; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < D; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}

void layer_decode(int B, int H, int T, const int32_t len[B], const _Float16 q[B][H][D], const _Float16 kc[B][H][T][D],
		  const _Float16 vc[B][H][T][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(layer_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[D] = {0};
			for (int t = 0; t < len[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++) s += (float)q[b][h][d] * (float)kc[b][h][t][d];
				s *= SCALE;
				float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < D; d++) acc[d] = acc[d] * c + p * (float)vc[b][h][t][d];
				m = mn;
			}
			for (int d = 0; d < D; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
