/* naive_probs_out_rtD_fp16.c: `P = softmax(Q K^T * scale); O = P V` with the
 * probabilities returned (output_attentions=True), as a student writes it after the
 * PyTorch formula: one nest per matrix operation, the softmax in place in P over three
 * loops of each row, the output accumulated j-outer after zeroing it. Style: fp16
 * tensors, float probabilities, a run-time head dim, the scale computed before the
 * region, parallel(b, h). */
#include <math.h>

void attn_probs(int B, int H, int N, int D, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		const _Float16 v[B][H][N][D], float P[B][H][N][N], _Float16 out[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(attn_probs) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					P[b][h][i][j] = dot * scale;
				}
			for (int i = 0; i < N; i++) {
				float row_max = P[b][h][i][0];
				for (int j = 1; j < N; j++)
					if (P[b][h][i][j] > row_max)
						row_max = P[b][h][i][j];
				float denom = 0.0f;
				for (int j = 0; j < N; j++) {
					P[b][h][i][j] = expf(P[b][h][i][j] - row_max);
					denom += P[b][h][i][j];
				}
				for (int j = 0; j < N; j++)
					P[b][h][i][j] = P[b][h][i][j] / denom;
			}
			for (int i = 0; i < N; i++) {
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++)
					for (int d = 0; d < D; d++)
						acc[d] += P[b][h][i][j] * (float)v[b][h][j][d];
				for (int d = 0; d < D; d++)
					out[b][h][i][d] = (_Float16)acc[d];
			}
		}
}
