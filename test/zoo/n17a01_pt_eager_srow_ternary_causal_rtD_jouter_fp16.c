/* PyTorch eager port, op by op: S = q @ k^T * scale, masked_fill(j > i, -inf), softmax, P @ V
 * with the P.V loop j-outer into acc[D]; run-time head dim, fp16 storage. */
#include <math.h>

void sdpa_causal(int B, int H, int N, int D, const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		 const _Float16 v[B][H][N][D], _Float16 out[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(sdpa_causal) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float S[N];
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++) dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					S[j] = j > i ? -INFINITY : dot * scale;
				}
				float rowmax = -INFINITY;
				for (int j = 0; j < N; j++) rowmax = fmaxf(rowmax, S[j]);
				float rowsum = 0.0f;
				for (int j = 0; j < N; j++) { S[j] = expf(S[j] - rowmax); rowsum += S[j]; }
				float acc[D];
				for (int d = 0; d < D; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++)
					for (int d = 0; d < D; d++) acc[d] += S[j] / rowsum * (float)v[b][h][j][d];
				for (int d = 0; d < D; d++) out[b][h][i][d] = (_Float16)acc[d];
			}
}
