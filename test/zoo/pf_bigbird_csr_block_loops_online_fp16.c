/* pf_bigbird_csr_block_loops_online_fp16: block-sparse attention (BigBird / DeepSpeed
 * sparse-attention CPU reference): the layout per head is CSR over query blocks, row_ptr[H][NB
 * + 1] and col_idx[H][nnz], the keys visited block by block and inside each block, key
 * `col_idx[..] * BLK + jj`; a hand-written online softmax. fp16, D=64, BLK=16. */
#include <math.h>
#define D 64
#define BLK 16

void bsr_attention(int B, int H, int N, int NB, int NNZ, float scale,
		   const int row_ptr[H][NB + 1], const int col_idx[H][NNZ],
		   const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		   const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(bsr_attention) parallel(b, h, i) rolling(kb)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int ib = i / BLK;
				float m = -INFINITY, l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				for (int kb = row_ptr[h][ib]; kb < row_ptr[h][ib + 1]; kb++) {
					for (int jj = 0; jj < BLK; jj++) {
						const int j = col_idx[h][kb] * BLK + jj;
						float s = 0.0f;
						for (int d = 0; d < D; d++)
							s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
						s *= scale;
						float m_new = fmaxf(m, s);
						float c = expf(m - m_new);
						float p = expf(s - m_new);
						l = l * c + p;
						for (int d = 0; d < D; d++)
							acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
						m = m_new;
					}
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)(l > 0.0f ? acc[d] / l : 0.0f);
			}
}
