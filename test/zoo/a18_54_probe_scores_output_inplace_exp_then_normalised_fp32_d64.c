/* Probe: the caller passes the score matrix S as an output; the row is computed into S, the
 * exponentials overwrite it in place, and it is normalised in place by a later loop, then used for
 * the output (the softmax written over its own input, as `scores.softmax_(-1)` would). */
#include <math.h>

void attn_inplace_S(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		    float S[B][H][N][N], float o[B][H][N][64])
{
#pragma fuse kernel(attn_inplace_S) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				for (int j = 0; j < N; j++) {
					S[b][h][i][j] = 0.0f;
					for (int d = 0; d < 64; d++) S[b][h][i][j] += q[b][h][i][d] * k[b][h][j][d];
					S[b][h][i][j] *= 0.125f;
				}
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, S[b][h][i][j]);
				float z = 0.0f;
				for (int j = 0; j < N; j++) { S[b][h][i][j] = expf(S[b][h][i][j] - mx); z += S[b][h][i][j]; }
				for (int j = 0; j < N; j++) S[b][h][i][j] = S[b][h][i][j] / z;
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += S[b][h][i][j] * v[b][h][j][d];
					o[b][h][i][d] = a;
				}
			}
}
