/* pf_scores_row_weights_saved_pv_reads_them_fp16.c: attention that keeps the weights for the
 * caller: scores in a row s[N] (max by an if), the sum, then the weights w = softmax(s)
 * stored in their own loop, and the output d-outer reading the stored weights back.
 * fp16 q/k/v, fp32 weights, D = 128 literal, scale a parameter. */
#include <math.h>

void attn_keep_weights(int B, int H, int N, float scale, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
        const _Float16 v[B][H][N][128], float w[B][H][N][N], _Float16 o[B][H][N][128])
{
#pragma fuse kernel(attn_keep_weights) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 128; d++)
						t += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = t * scale;
					if (s[j] > m) m = s[j];
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++)
					l += expf(s[j] - m);
				for (int j = 0; j < N; j++)
					w[b][h][i][j] = expf(s[j] - m) / l;
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += w[b][h][i][j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)acc;
				}
			}
}
