/* naive_top_scores_matrix_bh_rows_rtN_fp16: a port of `torch.softmax(q @ k.transpose(-2,
 * -1) * scale, -1) @ v` that keeps the whole score tensor `float S[B][H][N][N]` as a
 * variable-length array declared at the top of the function, filled and normalised in
 * place row by row inside the (b, h, i) loops. fp16 inputs, D = 64, run-time N. */
#include <math.h>
#define D 64

void sdpa_naive(int B, int H, int N, float scale, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		const _Float16 v[B][H][N][D], _Float16 o[B][H][N][D])
{
	float S[B][H][N][N];
#pragma fuse kernel(sdpa_naive) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float acc = 0.0f;
					for (int d = 0; d < D; d++)
						acc += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					S[b][h][i][j] = acc * scale;
					if (S[b][h][i][j] > mx)
						mx = S[b][h][i][j];
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					S[b][h][i][j] = expf(S[b][h][i][j] - mx);
					sum += S[b][h][i][j];
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += S[b][h][i][j] / sum * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)acc;
				}
			}
}
