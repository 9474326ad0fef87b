/* pf_blocksparse_ifelse_safe_softmax_fp16.c: block-sparse attention (DeepSpeed / Triton
 * blocksparse style): uint8_t layout[h][bi][bj] says which BLK x BLK blocks are kept, causal
 * within them. The score is computed only under the layout and -INFINITY otherwise
 * (if/else), stored in S[N]; the exponentials use PyTorch's guard for a row with every key
 * masked (`M == -INFINITY ? 0.0f : expf(S[j] - M)`); L > 0 guards the division.
 * #define D 64, BLK 64. rolling(j), parallel(b, h, i). */
#include <math.h>
#include <stdint.h>

#define BLK 64
#define D 64

void blocksparse_attn(int B, int H, int N, int NBLK, float sm_scale,
		      const _Float16 Q[B][H][N][D], const _Float16 K[B][H][N][D],
		      const _Float16 V[B][H][N][D], const uint8_t layout[H][NBLK][NBLK],
		      _Float16 O[B][H][N][D])
{
#pragma fuse kernel(blocksparse_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float S[N];
				float M = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float x;
					if (layout[h][i / BLK][j / BLK]) {
						float dot = 0.0f;
						for (int d = 0; d < D; d++)
							dot += (float)Q[b][h][i][d] * (float)K[b][h][j][d];
						x = dot * sm_scale;
					} else {
						x = -INFINITY;
					}
					S[j] = x;
					M = fmaxf(M, x);
				}
				float L = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float P = M == -INFINITY ? 0.0f : expf(S[j] - M);
					L += P;
					for (int d = 0; d < D; d++)
						acc[d] += P * (float)V[b][h][j][d];
				}
				for (int d = 0; d < D; d++)
					O[b][h][i][d] = (_Float16)(L > 0.0f ? acc[d] / L : 0.0f);
			}
}
