/* A port that returns the attention probabilities (output_attentions=True): the scaled scores are
 * written to the caller's `attn` tensor, softmaxed there in place (max, exp+sum, divide), then read for P.V. */
#include <math.h>
void attn_with_probs(int B, int H, int N, const float Q[B][H][N][64], const float K[B][H][N][64], const float V[B][H][N][64],
		     float attn[B][H][N][N], float O[B][H][N][64])
{
#pragma fuse kernel(attn_with_probs) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += Q[b][h][i][d] * K[b][h][j][d];
					attn[b][h][i][j] = s / 8.0f;
				}
				float m = attn[b][h][i][0];
				for (int j = 1; j < N; j++) if (attn[b][h][i][j] > m) m = attn[b][h][i][j];
				float l = 0.0f;
				for (int j = 0; j < N; j++) { attn[b][h][i][j] = expf(attn[b][h][i][j] - m); l += attn[b][h][i][j]; }
				for (int j = 0; j < N; j++) attn[b][h][i][j] /= l;
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += attn[b][h][i][j] * V[b][h][j][d];
					O[b][h][i][d] = acc;
				}
			}
}
