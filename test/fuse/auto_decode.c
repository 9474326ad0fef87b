/* No rolling or splitk: one row per (b, h) that does not grow with L, so fusecc picks
 * split-k itself and says why. */
#include <math.h>

void auto_decode(int B, int H, int L, const float s[B][H][L], const float v[B][H][L], float o[B][H])
{
#pragma fuse kernel(auto_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < L; j++)
				m = fmaxf(m, s[b][h][j]);
			float l = 0.0f;
			float acc = 0.0f;
			for (int j = 0; j < L; j++) {
				l += expf(s[b][h][j] - m);
				acc += expf(s[b][h][j] - m) * v[b][h][j];
			}
			o[b][h] = acc / l;
		}
}
