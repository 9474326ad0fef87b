/* A student's three-phase attention per (b, h): the full N x N score matrix from malloc, softmax in
 * place row by row, then P @ V; causal by filling -inf above the diagonal. */
#include <math.h>
#include <stdlib.h>

void student_attn(int B, int H, int N, const float Q[B][H][N][64], const float K[B][H][N][64], const float V[B][H][N][64],
		  float O[B][H][N][64])
{
#pragma fuse kernel(student_attn) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float *S = malloc(sizeof(float) * N * N);
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++) {
					if (j > i) {
						S[i * N + j] = -INFINITY;
					} else {
						float dot = 0.0f;
						for (int d = 0; d < 64; d++) dot += Q[b][h][i][d] * K[b][h][j][d];
						S[i * N + j] = dot / 8.0f;
					}
				}
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, S[i * N + j]);
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					S[i * N + j] = expf(S[i * N + j] - mx);
					sum += S[i * N + j];
				}
				for (int j = 0; j < N; j++) S[i * N + j] /= sum;
			}
			for (int i = 0; i < N; i++)
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += S[i * N + j] * V[b][h][j][d];
					O[b][h][i][d] = acc;
				}
			free(S);
		}
}
