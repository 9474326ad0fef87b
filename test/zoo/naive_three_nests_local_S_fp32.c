/* naive_three_nests_local_S_fp32.c: the most literal port of `attn = softmax(Q @ K.T / sqrt(d)) @ V`: per (b, h),
 * S = Q K^T into a full N x N scratch, a row softmax over S, then O = S V, each as
 * its own loop nest over i.
 * Style: fp32, a run-time-size 2-D local, parallel(b, h) without the row loop, no strategy
 * clause. The three nests run as one loop over i; S narrows to one row. */
#include <math.h>

void attn_naive(int B, int H, int N, const float Q[B][H][N][64], const float K[B][H][N][64],
		const float V[B][H][N][64], float O[B][H][N][64])
{
#pragma fuse kernel(attn_naive) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float S[N][N];
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++) {
					float acc = 0.0f;
					for (int d = 0; d < 64; d++) acc += Q[b][h][i][d] * K[b][h][j][d];
					S[i][j] = acc / 8.0f;
				}
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY, sum = 0.0f;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, S[i][j]);
				for (int j = 0; j < N; j++) { S[i][j] = expf(S[i][j] - mx); sum += S[i][j]; }
				for (int j = 0; j < N; j++) S[i][j] /= sum;
			}
			for (int i = 0; i < N; i++)
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += S[i][j] * V[b][h][j][d];
					O[b][h][i][d] = acc;
				}
		}
}
