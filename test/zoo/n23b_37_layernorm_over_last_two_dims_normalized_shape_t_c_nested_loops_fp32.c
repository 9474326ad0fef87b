/* nn.LayerNorm((T, C)) over the last two dims of x[B][T][C] (speech / vision people
 * normalise a whole sample this way), written with nested t and c loops, weight and bias
 * of shape [T][C]. */
#include <math.h>

void layernorm_2d(int B, int T, int C, float eps, const float x[B][T][C], const float w[T][C],
		  const float bias[T][C], float y[B][T][C])
{
#pragma fuse kernel(layernorm_2d) parallel(b)
	for (int b = 0; b < B; b++) {
		float sum = 0.0f;
		for (int t = 0; t < T; t++)
			for (int c = 0; c < C; c++)
				sum += x[b][t][c];
		const float mean = sum / (T * C);
		float sq = 0.0f;
		for (int t = 0; t < T; t++)
			for (int c = 0; c < C; c++)
				sq += (x[b][t][c] - mean) * (x[b][t][c] - mean);
		const float rstd = 1.0f / sqrtf(sq / (T * C) + eps);
		for (int t = 0; t < T; t++)
			for (int c = 0; c < C; c++)
				y[b][t][c] = (x[b][t][c] - mean) * rstd * w[t][c] + bias[t][c];
	}
}
