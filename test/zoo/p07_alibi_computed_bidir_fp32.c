/* Bidirectional ALiBi attention (encoder, non-causal), fp32 storage, int D.
 * Style: the ALiBi slope is computed inside the head loop as 2^(-8(h+1)/H) (power-of-two H);
 * bias -slope*|i-j| via fabsf; scale computed before the loop; ternary max; expf; scores in
 * a local w[N]; d-outer P.V. */
#include <math.h>

void alibi_encoder(int B, int H, int N, int D,
		   const float q[B][H][N][D], const float k[B][H][N][D],
		   const float v[B][H][N][D], float o[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);

#pragma fuse kernel(alibi_encoder) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const float slope = exp2f(-8.0f * (float)(h + 1) / (float)H);
			for (int i = 0; i < N; i++) {
				float w[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += q[b][h][i][d] * k[b][h][j][d];
					w[j] = dot * scale - slope * fabsf((float)(i - j));
					mx = mx > w[j] ? mx : w[j];
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++) {
					w[j] = expf(w[j] - mx);
					z += w[j];
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += w[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / z;
				}
			}
		}
}
