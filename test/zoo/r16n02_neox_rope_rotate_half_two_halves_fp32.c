/* Llama rotate_half RoPE folded into the score loop by a numerics person: the first and second
 * halves of the head (D=128) rotated with cos/sin[pos][64]; non-causal prefill, fp32, scale param. */
#include <math.h>

void rope_half(int B, int H, int N, float scale, const float q[B][H][N][128], const float k[B][H][N][128],
	       const float v[B][H][N][128], const float cs[N][64], const float sn[N][64], float o[B][H][N][128])
{
#pragma fuse kernel(rope_half) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 64; d++) {
						float qa = q[b][h][i][d] * cs[i][d] - q[b][h][i][d + 64] * sn[i][d];
						float qb = q[b][h][i][d + 64] * cs[i][d] + q[b][h][i][d] * sn[i][d];
						float ka = k[b][h][j][d] * cs[j][d] - k[b][h][j][d + 64] * sn[j][d];
						float kb = k[b][h][j][d + 64] * cs[j][d] + k[b][h][j][d] * sn[j][d];
						dot += qa * ka + qb * kb;
					}
					s[j] = dot * scale;
					if (s[j] > mx) mx = s[j];
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - mx); sum += s[j]; }
				for (int d = 0; d < 128; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += s[j] * v[b][h][j][d];
					o[b][h][i][d] = a / sum;
				}
			}
}
