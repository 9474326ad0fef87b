/* Message check: a file-scope scratch row shared by two attention kernels of one file (as old C
 * code keeps a static buffer), N at most 4096. */
#include <math.h>

static float g_scores[4096];

void attn_a(int H, int N, const float q[H][N][64], const float k[H][N][64], const float v[H][N][64], float o[H][N][64])
{
#pragma fuse kernel(attn_a) parallel(h, i)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY;
			for (int j = 0; j < N; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[h][i][d] * k[h][j][d];
				g_scores[j] = s * 0.125f;
				m = fmaxf(m, g_scores[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < N; j++) { g_scores[j] = expf(g_scores[j] - m); l += g_scores[j]; }
			for (int d = 0; d < 64; d++) {
				float a = 0.0f;
				for (int j = 0; j < N; j++) a += g_scores[j] * v[h][j][d];
				o[h][i][d] = a / l;
			}
		}
}
