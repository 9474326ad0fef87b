/* Native-sparse-attention style "selected" branch, as a researcher writes the reference:
 * each query token i of head h picks TOPK key blocks of BS tokens (block_idx[b][h][i][t],
 * -1 = unused slot, no duplicates), and attends causally to the tokens of those blocks. */
#include <math.h>
#include <stdint.h>

void nsa_select_attn(int B, int H, int N, int TOPK, int BS, const _Float16 q[B][H][N][64],
		     const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64],
		     const int32_t block_idx[B][H][N][TOPK], _Float16 o[B][H][N][64])
{
	float scale = 1.0f / sqrtf(64.0f);
#pragma fuse kernel(nsa_select) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int t = 0; t < TOPK; t++) {
					int blk = block_idx[b][h][i][t];
					if (blk < 0)
						continue;
					for (int j = blk * BS; j < blk * BS + BS && j <= i; j++) {
						float s = 0.0f;
						for (int d = 0; d < 64; d++)
							s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
						s *= scale;
						float mn = fmaxf(m, s);
						float c = expf(m - mn), p = expf(s - mn);
						l = l * c + p;
						for (int d = 0; d < 64; d++)
							acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
						m = mn;
					}
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(l > 0.0f ? acc[d] / l : 0.0f);
			}
}
