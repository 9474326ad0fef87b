/* Textbook entropy of softmax with the 0 log 0 guard: if (p > 0) H -= p * log(p), p the
 * normalised probability (reads the max and the sum). */
#include <math.h>

void entropy_guarded(int R, int C, const float x[R][C], float H[R])
{
#pragma fuse kernel(entropy_guarded) parallel(r)
	for (int r = 0; r < R; r++) {
		float m = -INFINITY;
		for (int c = 0; c < C; c++) m = fmaxf(m, x[r][c]);
		float z = 0.0f;
		for (int c = 0; c < C; c++) z += expf(x[r][c] - m);
		float h = 0.0f;
		for (int c = 0; c < C; c++) {
			float p = expf(x[r][c] - m) / z;
			if (p > 0.0f) h -= p * logf(p);
		}
		H[r] = h;
	}
}
