/* Probe: a bidirectional local band written as `(i - j) / W == 0` (|i - j| < W, since C's division
 * truncates toward zero: j > i gives a negative quotient rounded up to 0). A fuser reading the
 * division as floor would keep only 0 <= i - j < W. */
#include <math.h>

void band_div(int B, int H, int N, int W, const float q[B][H][N][64], const float k[B][H][N][64],
	      const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(band_div) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					sc[j] = (i - j) / W == 0 ? s * 0.125f : -INFINITY;
				}
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) mx = fmaxf(mx, sc[j]);
				float l = 0.0f;
				for (int j = 0; j < N; j++) l += expf(sc[j] - mx);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += expf(sc[j] - mx) * v[b][h][j][d];
					o[b][h][i][d] = acc / l;
				}
			}
}
