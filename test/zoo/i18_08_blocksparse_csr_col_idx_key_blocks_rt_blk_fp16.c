/* Block-sparse attention with the layout in CSR form (DeepSpeed / Triton blocksparse): for the
 * query block of row i, the key blocks to visit are col_idx[row_ptr[ib] .. row_ptr[ib + 1]).
 * Someone porting the kernel's loop structure to C: an outer loop over the listed blocks, an
 * inner one over the keys of the block. fp16, D = 64, run-time block size. */
#include <math.h>
#include <stdint.h>

void bs_attn(int B, int H, int N, int BLK, int NB, int NNZ, const int32_t row_ptr[NB + 1], const int32_t col_idx[NNZ],
	     const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
	const float sc = 0.125f;
#pragma fuse kernel(bs_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int ib = i / BLK;
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int nz = row_ptr[ib]; nz < row_ptr[ib + 1]; nz++) {
					const int kb = col_idx[nz];
					for (int jj = 0; jj < BLK; jj++) {
						const int j = kb * BLK + jj;
						float s = 0.0f;
						for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
						s *= sc;
						const float mn = fmaxf(m, s);
						const float r = expf(m - mn);
						const float p = expf(s - mn);
						l = l * r + p;
						for (int d = 0; d < 64; d++) acc[d] = acc[d] * r + p * (float)v[b][h][j][d];
						m = mn;
					}
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
