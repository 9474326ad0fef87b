/* Probe: the row loop writes a different row than it reads (the output sequence reversed,
 * o[b][h][N - 1 - i], as a bidirectional-RNN-minded port does): still one row per iteration. */
#include <math.h>

void attn_flip(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
	       const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(attn_flip) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N], mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					sc[j] = s * 0.125f;
					mx = fmaxf(mx, sc[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) l += expf(sc[j] - mx);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += expf(sc[j] - mx) * v[b][h][j][d];
					o[b][h][N - 1 - i][d] = acc / l;
				}
			}
}
