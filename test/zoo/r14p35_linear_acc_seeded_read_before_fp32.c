/* probe: softmax-free (sigmoid) attention, acc seeded from a bias row and a norm read before */
#include <math.h>
void p35(int H, int N, const float q[H][N][64], const float k[H][N][64], const float v[H][N][64],
	 const float bias[H][64], float o[H][N][64], float first[H][N])
{
#pragma fuse kernel(p35) parallel(h, i)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float acc[64];
			for (int d = 0; d < 64; d++) acc[d] = bias[h][d];
			first[h][i] = acc[0];
			for (int j = 0; j <= i; j++) {
				float s = 0;
				for (int d = 0; d < 64; d++) s += q[h][i][d] * k[h][j][d];
				float w = 1.0f / (1.0f + expf(-s * 0.125f));
				for (int d = 0; d < 64; d++) acc[d] += w * v[h][j][d];
			}
			for (int d = 0; d < 64; d++) o[h][i][d] = acc[d];
		}
}
