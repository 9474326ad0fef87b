/* Block-sparse attention (DeepSpeed/Triton blocksparse): layout[h][i / BLK][j / BLK] (uint8)
 * with a run-time block size, causal inside; masked blocks skipped with continue. D = 64. */
#include <math.h>
#include <stdint.h>

void bs_attn(int B, int H, int N, int BLK, int NB, const uint8_t layout[H][NB][NB], const _Float16 q[B][H][N][64],
	     const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(bs_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					if (!layout[h][i / BLK][j / BLK]) continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				for (int j = 0; j <= i; j++) {
					if (!layout[h][i / BLK][j / BLK]) continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(s * 0.125f - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
