/* A student's causal attention: the row of scores is first filled with -inf (the mask),
 * then the visible part j <= i is overwritten with the dot products, and the softmax and
 * P.V run over the whole row (exp(-inf) = 0 takes care of the rest). */
#include <math.h>

void student_causal(int B, int H, int N, const _Float16 Q[B][H][N][64], const _Float16 K[B][H][N][64],
		    const _Float16 V[B][H][N][64], _Float16 O[B][H][N][64])
{
	float scale = 1.0f / 8.0f;
#pragma fuse kernel(student_causal) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float row[N];
				for (int j = 0; j < N; j++)
					row[j] = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float dot = 0;
					for (int d = 0; d < 64; d++)
						dot += (float)Q[b][h][i][d] * (float)K[b][h][j][d];
					row[j] = dot * scale;
				}
				float biggest = row[0];
				for (int j = 1; j < N; j++)
					if (row[j] > biggest)
						biggest = row[j];
				float total = 0;
				for (int j = 0; j < N; j++) {
					row[j] = expf(row[j] - biggest);
					total += row[j];
				}
				for (int d = 0; d < 64; d++) {
					float out = 0;
					for (int j = 0; j < N; j++)
						out += row[j] * (float)V[b][h][j][d];
					O[b][h][i][d] = (_Float16)(out / total);
				}
			}
}
