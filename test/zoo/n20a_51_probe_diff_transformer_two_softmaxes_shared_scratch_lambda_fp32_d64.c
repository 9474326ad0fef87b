/* PROBE (natural): DIFF Transformer attention, out = (softmax(q1 k1^T) - lambda * softmax(q2 k2^T)) V, written
 * with ONE score scratch s[N] reused for both maps: map 1 is folded into acc before map 2 overwrites s. */
#include <math.h>
void diff_attn(int B, int H, int N, float lambda, const float q1[B][H][N][64], const float k1[B][H][N][64],
	       const float q2[B][H][N][64], const float k2[B][H][N][64], const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(diff_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float acc[64];
				float m = -INFINITY, l = 0.0f;
				for (int j = 0; j <= i; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += q1[b][h][i][d] * k1[b][h][j][d];
					s[j] = t * 0.125f;
					m = fmaxf(m, s[j]);
				}
				for (int j = 0; j <= i; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) a += s[j] * v[b][h][j][d];
					acc[d] = a / l;
				}
				m = -INFINITY;
				l = 0.0f;
				for (int j = 0; j <= i; j++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += q2[b][h][i][d] * k2[b][h][j][d];
					s[j] = t * 0.125f;
					m = fmaxf(m, s[j]);
				}
				for (int j = 0; j <= i; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) a += s[j] * v[b][h][j][d];
					o[b][h][i][d] = acc[d] - lambda * (a / l);
				}
			}
}
