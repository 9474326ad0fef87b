/* naive_gqa_scale_nest_fp16.c: grouped-query attention (kv head h / G) written one
 * matrix operation per nest: S = Q K^T, S *= scale in a nest of its own, the row
 * softmax (max, then exp and sum, then divide), O = S V with the d loop outside the
 * key loop. Style: fp16, run-time sizes and head dim 64 as a literal, the scratch a
 * run-time 2-D local, parallel(b, h), rolling(j) named by the user. */
#include <math.h>

void gqa_nests(int B, int H, int G, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H / G][N][64],
	       const _Float16 v[B][H / G][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(gqa_nests) parallel(b, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float S[N][N];
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++) {
					float acc = 0.0f;
					for (int d = 0; d < 64; d++)
						acc += (float)q[b][h][i][d] * (float)k[b][h / G][j][d];
					S[i][j] = acc;
				}
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++)
					S[i][j] *= 0.125f;
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j++)
					mx = S[i][j] > mx ? S[i][j] : mx;
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					S[i][j] = expf(S[i][j] - mx);
					sum += S[i][j];
				}
				for (int j = 0; j < N; j++)
					S[i][j] /= sum;
			}
			for (int i = 0; i < N; i++)
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += S[i][j] * (float)v[b][h / G][j][d];
					o[b][h][i][d] = (_Float16)acc;
				}
		}
}
