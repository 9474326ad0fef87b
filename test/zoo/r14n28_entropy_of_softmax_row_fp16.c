/* Entropy of softmax (RL policy entropy bonus): H = lse - sum p*x. */
#include <math.h>
void entropy(int R, int C, const _Float16 x[R][C], float ent[R])
{
#pragma fuse kernel(entropy) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, (float)x[r][c]);
		float z = 0, zx = 0;
		for (int c = 0; c < C; c++) {
			float e = expf((float)x[r][c] - m);
			z += e;
			zx += e * (float)x[r][c];
		}
		ent[r] = m + logf(z) - zx / z;
	}
}
