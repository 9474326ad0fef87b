/* Block-sparse attention (DeepSpeed / Triton blocksparse reference): a [H][NQB][NKB] bool layout
 * of 64x64 blocks read in the key loop's condition, together with causal masking. */
#include <math.h>
#include <stdbool.h>

void blocksparse_attn(int B, int H, int N, int NBLK, const bool layout[H][NBLK][NBLK], const _Float16 q[B][H][N][64],
		      const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(blocksparse_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					if (!layout[h][i / 64][j / 64])
						continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(l > 0.0f ? acc[d] / l : 0.0f);
			}
}
