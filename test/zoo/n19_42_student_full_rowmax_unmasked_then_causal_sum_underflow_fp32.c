/* A student computes the full S = QK^T / sqrt(d), takes the row max over ALL keys (forgetting the mask there),
 * then applies causality only in the exp-sum and in P.V (j <= i). Same softmax mathematically, but the max
 * includes future keys: with large logits exp underflows exactly as written. */
#include <math.h>
void student_causal(int B, int H, int N, const float Q[B][H][N][64], const float K[B][H][N][64], const float V[B][H][N][64],
		    float O[B][H][N][64])
{
#pragma fuse kernel(student_causal) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float S[N];
				for (int j = 0; j < N; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += Q[b][h][i][d] * K[b][h][j][d];
					S[j] = t / 8.0f;
				}
				float rowmax = -INFINITY;
				for (int j = 0; j < N; j++) rowmax = fmaxf(rowmax, S[j]);
				float rowsum = 0.0f;
				for (int j = 0; j < N; j++) if (j <= i) rowsum += expf(S[j] - rowmax);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) if (j <= i) acc += expf(S[j] - rowmax) / rowsum * V[b][h][j][d];
					O[b][h][i][d] = acc;
				}
			}
}
