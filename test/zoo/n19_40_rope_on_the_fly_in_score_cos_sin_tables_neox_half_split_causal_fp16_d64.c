/* A fused "rope + attention" reference (NeoX half-split rotary applied to q and k inside the score loop,
 * cos/sin tables [N][32]) as a kernel author writes the CPU check for it. Causal, fp16, D = 64. */
#include <math.h>
void rope_attn(int B, int H, int N, const float cos_t[N][32], const float sin_t[N][32], const _Float16 q[B][H][N][64],
	       const _Float16 k[B][H][N][64], const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(rope_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 32; d++) {
						const float q1 = (float)q[b][h][i][d], q2 = (float)q[b][h][i][d + 32];
						const float k1 = (float)k[b][h][j][d], k2 = (float)k[b][h][j][d + 32];
						const float qa = q1 * cos_t[i][d] - q2 * sin_t[i][d], qb = q2 * cos_t[i][d] + q1 * sin_t[i][d];
						const float ka = k1 * cos_t[j][d] - k2 * sin_t[j][d], kb = k2 * cos_t[j][d] + k1 * sin_t[j][d];
						dot += qa * ka + qb * kb;
					}
					s[j] = dot * 0.125f;
					mx = fmaxf(mx, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) { s[j] = expf(s[j] - mx); l += s[j]; }
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) a += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a / l);
				}
			}
}
