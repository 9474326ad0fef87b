/* Longformer / BigBird-ish local + global attention: key j visible if |i - j| <= W (band) or j is a
 * global token (is_global[b][j], _Bool) or i itself is global; bidirectional. */
#include <math.h>
#include <stdlib.h>
void longformer_attn(int B, int H, int N, int W, const float q[B][H][N][64], const float k[B][H][N][64], const float v[B][H][N][64],
		     const _Bool is_global[B][N], float o[B][H][N][64])
{
#pragma fuse kernel(longformer_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					const int vis = abs(i - j) <= W || is_global[b][j] || is_global[b][i];
					sc[j] = vis ? s * 0.125f : -INFINITY;
					m = fmaxf(m, sc[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) { sc[j] = expf(sc[j] - m); l += sc[j]; }
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += sc[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / l;
				}
			}
}
