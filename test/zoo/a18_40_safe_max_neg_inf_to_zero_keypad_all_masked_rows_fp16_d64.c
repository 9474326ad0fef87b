/* FlashAttention's guard written in C: a row whose keys are all padded has max -inf, so the
 * exponent uses m_safe = (m == -inf) ? 0 : m, and such a row's output is 0 (0 / 0 guarded). */
#include <math.h>
#include <stdbool.h>

void attn_safe_max(int B, int H, int N, const bool pad[B][N], const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		   const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(attn_safe_max) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N], m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = pad[b][j] ? -INFINITY : x * 0.125f;
					m = fmaxf(m, s[j]);
				}
				const float m_safe = m == -INFINITY ? 0.0f : m;
				float l = 0.0f;
				for (int j = 0; j < N; j++) { s[j] = expf(s[j] - m_safe); l += s[j]; }
				const float inv = l == 0.0f ? 0.0f : 1.0f / l;
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++) a += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a * inv);
				}
			}
}
