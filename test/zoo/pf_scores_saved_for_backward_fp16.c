/* pf_scores_saved_for_backward_fp16.c: a training-code attention that saves the raw scores
 * (pre-softmax, for its backward pass) as it takes their max, then reads the saved scores
 * back for the exponentials and P.V (j-outer into acc[64]). fp16 q/k/v, fp32 scores
 * output, no scale (folded into q by the caller), D = 64 literal. */
#include <math.h>

void attn_save_scores(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		      const _Float16 v[B][H][N][64], float scores[B][H][N][N], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(attn_save_scores) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					scores[b][h][i][j] = s;
					m = fmaxf(m, s);
				}
				float l = 0.0f, acc[64] = {0};
				for (int j = 0; j < N; j++) {
					float p = expf(scores[b][h][i][j] - m);
					l += p;
					for (int d = 0; d < 64; d++)
						acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
