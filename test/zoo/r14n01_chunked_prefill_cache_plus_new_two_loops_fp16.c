/* vLLM-style chunked prefill written by hand: keys < P come from the cache kc, the chunk's
 * own keys from k (causal among the chunk). Two loops per pass. */
#include <math.h>
void chunk_prefill(int B, int H, int P, int T, const _Float16 q[B][H][T][64],
		   const _Float16 kc[B][H][P][64], const _Float16 vc[B][H][P][64],
		   const _Float16 k[B][H][T][64], const _Float16 v[B][H][T][64],
		   _Float16 o[B][H][T][64])
{
#pragma fuse kernel(chunk_prefill) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < T; i++) {
				float m = -INFINITY;
				for (int j = 0; j < P; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)kc[b][h][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				float l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j < P; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)kc[b][h][j][d];
					float p = expf(s * 0.125f - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)vc[b][h][j][d];
				}
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(s * 0.125f - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
