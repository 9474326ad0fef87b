/* PyTorch-eager port, op by op: S = q @ k^T * scale, S.masked_fill(causal, -inf), P = softmax(S),
 * O = P @ V, each a nest of its own with materialised S and P; VLA parameters with the first extent
 * left out as C allows (`q[][H][N][D]`), head dim 80 as a #define. */
#include <math.h>
#define D 80

void sdpa_eager(int B, int H, int N, const _Float16 q[][H][N][D], const _Float16 k[][H][N][D],
		const _Float16 v[][H][N][D], _Float16 out[][H][N][D])
{
	const float scale = 1.0f / sqrtf(D);
#pragma fuse kernel(sdpa_eager)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float S[N], P[N];
				for (int j = 0; j < N; j++) {
					float acc = 0.f;
					for (int d = 0; d < D; d++)
						acc += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					S[j] = acc * scale;
				}
				for (int j = 0; j < N; j++)
					if (j > i) S[j] = -INFINITY;
				float rowmax = -INFINITY;
				for (int j = 0; j < N; j++) rowmax = fmaxf(rowmax, S[j]);
				float rowsum = 0.f;
				for (int j = 0; j < N; j++) { P[j] = expf(S[j] - rowmax); rowsum += P[j]; }
				for (int j = 0; j < N; j++) P[j] = P[j] / rowsum;
				for (int d = 0; d < D; d++) {
					float o = 0.f;
					for (int j = 0; j < N; j++) o += P[j] * (float)v[b][h][j][d];
					out[b][h][i][d] = (_Float16)o;
				}
			}
}
