/* PROBE: scale inside the exponential as a caller's parameter, max taken over the raw dots; with a
 * negative scale (a sign-flipped "repulsive" attention) the max no longer bounds the exponent. */
#include <math.h>

void attn_param_scale(int B, int H, int N, float sm_scale, const float q[B][H][N][64], const float k[B][H][N][64],
		      const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(attn_param_scale) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float qk = 0.0f;
					for (int d = 0; d < 64; d++) qk += q[b][h][i][d] * k[b][h][j][d];
					m = fmaxf(m, qk);
				}
				float l = 0.0f, acc[64] = {0};
				for (int j = 0; j < N; j++) {
					float qk = 0.0f;
					for (int d = 0; d < 64; d++) qk += q[b][h][i][d] * k[b][h][j][d];
					float p = expf(sm_scale * (qk - m));
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = acc[d] / l;
			}
}
