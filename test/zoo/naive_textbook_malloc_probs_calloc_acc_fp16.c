/* naive_textbook_malloc_probs_calloc_acc_fp16.c: attention as a numerical-methods textbook
 * writes it in C99: the scores of one (b, h) in a flat VLA `float scores[N * N]`, the
 * probabilities in a malloc'd buffer (cast as in C++-compatible code), both indexed
 * `[row * N + col]` through a local row offset; each output row accumulated in a calloc'd
 * vector (its zeros are the sum's start); each buffer freed at the end of its block.
 * Style: fp16 tensors, head dim 64 by #define, `(float *)malloc(sizeof(float) * N * N)`,
 * `calloc(HEAD_DIM, sizeof *acc)`, `const int row = i * N;`, max seeded from the first column,
 * no strategy clause. */
#include <math.h>
#include <stdlib.h>

#define HEAD_DIM 64

void attention(int B, int H, int N, const _Float16 Q[B][H][N][HEAD_DIM], const _Float16 K[B][H][N][HEAD_DIM],
	       const _Float16 V[B][H][N][HEAD_DIM], _Float16 O[B][H][N][HEAD_DIM])
{
#pragma fuse kernel(attention) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float scores[N * N];
			float *probs = (float *)malloc(sizeof(float) * N * N);
			for (int i = 0; i < N; i++) {
				const int row = i * N;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						s += (float)Q[b][h][i][d] * (float)K[b][h][j][d];
					scores[row + j] = s * 0.125f;
				}
			}
			for (int i = 0; i < N; i++) {
				const int row = i * N;
				float m = scores[row];
				for (int j = 1; j < N; j++)
					if (scores[row + j] > m)
						m = scores[row + j];
				float z = 0.0f;
				for (int j = 0; j < N; j++)
					z += expf(scores[row + j] - m);
				for (int j = 0; j < N; j++)
					probs[row + j] = expf(scores[row + j] - m) / z;
			}
			for (int i = 0; i < N; i++) {
				float *acc = calloc(HEAD_DIM, sizeof *acc);
				for (int j = 0; j < N; j++)
					for (int d = 0; d < HEAD_DIM; d++)
						acc[d] += probs[i * N + j] * (float)V[b][h][j][d];
				for (int d = 0; d < HEAD_DIM; d++)
					O[b][h][i][d] = (_Float16)acc[d];
				free(acc);
			}
			free(probs);
		}
}
