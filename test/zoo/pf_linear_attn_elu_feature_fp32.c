/* pf_linear_attn_elu_feature_fp32.c: linear attention (Katharopoulos et al., 2020) written
 * quadratically, the way its paper's equation reads: phi(x) = elu(x) + 1 applied to every
 * element of q and k inside the dot product, normalised by the sum of the similarities,
 * non-causal, fp32, `int D` at run time.
 * Style: a student checking a chunked implementation: a helper for phi, the weights of
 * the row stored in sim[N] by one loop, summed and applied by the next. */
#include <math.h>

static float phi(float x) { return x > 0.0f ? x + 1.0f : expf(x); }

void linear_attention(int B, int H, int N, int D, const float q[B][H][N][D], const float k[B][H][N][D],
		      const float v[B][H][N][D], float o[B][H][N][D])
{
#pragma fuse kernel(linear_attention) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sim[N];
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++)
						s += phi(q[b][h][i][d]) * phi(k[b][h][j][d]);
					sim[j] = s;
				}
				float z = 0.0f;
				for (int j = 0; j < N; j++)
					z += sim[j];
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += sim[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / z;
				}
			}
}
