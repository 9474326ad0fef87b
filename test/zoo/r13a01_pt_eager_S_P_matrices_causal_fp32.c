/* PyTorch eager port, op by op: S = q @ k^T; S = S * scale; S.masked_fill_(triu, -inf);
 * P = softmax(S, -1); O = P @ v. Every intermediate materialised per (b, h) as a matrix. */
#include <math.h>

void eager_attn(int B, int H, int N, int D, float scale,
		const float q[B][H][N][D], const float k[B][H][N][D],
		const float v[B][H][N][D], float out[B][H][N][D])
{
#pragma fuse kernel(eager_attn) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float S[N][N];
			float P[N][N];
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++) {
					float acc = 0.0f;
					for (int d = 0; d < D; d++)
						acc += q[b][h][i][d] * k[b][h][j][d];
					S[i][j] = acc;
				}
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++)
					S[i][j] = S[i][j] * scale;
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++)
					if (j > i)
						S[i][j] = -INFINITY;
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j++)
					mx = fmaxf(mx, S[i][j]);
				float den = 0.0f;
				for (int j = 0; j < N; j++) {
					P[i][j] = expf(S[i][j] - mx);
					den += P[i][j];
				}
				for (int j = 0; j < N; j++)
					P[i][j] = P[i][j] / den;
			}
			for (int i = 0; i < N; i++)
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += P[i][j] * v[b][h][j][d];
					out[b][h][i][d] = acc;
				}
		}
}
