/* blocksparse_prefill.c: block-sparse prefill attention, the pattern FlexAttention's
 * BlockMask, Longformer and BigBird describe: the keys are cut into blocks of BLK, the
 * queries too, and layout[h][qb][kb] says whether query block qb of head h attends to key
 * block kb. The kernel skips the key blocks a query tile's layout rules out (no loads, no
 * products); a row whose every block is ruled out has no defined softmax (NaN, as in
 * PyTorch): the caller keeps at least one block per query block, the diagonal in practice.
 * Style: `const bool layout[H][NB][NB]` (stdbool.h) tested in an `if` that sets the score
 * to -INFINITY; max taken in the score loop; P.V with j outside d into acc[D].
 * fp16 storage, fp32 math, D = 128, BLK = 128 (FlexAttention's default); N = 1K ... 16K. */
#include <math.h>
#include <stdbool.h>

#define D 128
#define BLK 128

void blocksparse_prefill(int B, int H, int N, int NB, float scale, const bool layout[H][NB][NB],
			 const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
			 const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(blocksparse_prefill) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = dot * scale;
					if (!layout[h][i / BLK][j / BLK])
						s[j] = -INFINITY;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float p = expf(s[j] - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
