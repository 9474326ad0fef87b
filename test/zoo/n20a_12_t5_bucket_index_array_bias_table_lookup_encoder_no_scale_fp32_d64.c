/* T5 encoder self-attention with the relative position bias read through a precomputed bucket index
 * rel_bucket[N][N] (int) into the learned table rel_bias[NUM_BUCKETS][H] (as nn.Embedding stores it):
 * bias = rel_bias[rel_bucket[i][j]][h]; no 1/sqrt(d) (T5 folds it into the init). */
#include <math.h>
void t5_self_attn(int B, int H, int N, int NUM_BUCKETS, const float q[B][H][N][64], const float k[B][H][N][64],
		  const float v[B][H][N][64], const int rel_bucket[N][N], const float rel_bias[NUM_BUCKETS][H], float o[B][H][N][64])
{
#pragma fuse kernel(t5_self_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					sc[j] = s + rel_bias[rel_bucket[i][j]][h];
					mx = fmaxf(mx, sc[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) { sc[j] = expf(sc[j] - mx); l += sc[j]; }
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += sc[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / l;
				}
			}
}
