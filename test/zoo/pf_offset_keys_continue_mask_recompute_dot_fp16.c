/* pf_offset_keys_continue_mask_recompute_dot_fp16: the keys of each batch read at an
 * offset from a table (k[b][h][off[b] + j]), causal as `if (j > i) continue;` over keys up to
 * M, the dot recomputed in each pass, P.V d-outer: the score of the P.V is computed under
 * the mask (a read at off[b] + j may be out of range where the mask is off). */
#include <math.h>
#define D 64
void attn(int B, int H, int N, int M, const int off[B], float sc, const _Float16 q[B][H][N][D], const _Float16 k[B][H][M][D],
	  const _Float16 v[B][H][M][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < M; j++) {
					if (j > i) continue;
					float x = 0.0f;
					for (int d = 0; d < D; d++) x += (float)q[b][h][i][d] * (float)k[b][h][off[b] + j][d];
					m = fmaxf(m, x * sc);
				}
				float l = 0.0f;
				for (int j = 0; j < M; j++) {
					if (j > i) continue;
					float x = 0.0f;
					for (int d = 0; d < D; d++) x += (float)q[b][h][i][d] * (float)k[b][h][off[b] + j][d];
					l += expf(x * sc - m);
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < M; j++) {
						if (j > i) continue;
						float x = 0.0f;
						for (int e = 0; e < D; e++) x += (float)q[b][h][i][e] * (float)k[b][h][off[b] + j][e];
						acc += expf(x * sc - m) * (float)v[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
