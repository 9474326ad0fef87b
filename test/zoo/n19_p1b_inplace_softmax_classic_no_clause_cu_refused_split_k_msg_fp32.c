/* PROBE variant: the classic in-place softmax (exp stored back, then divided), no clause: fused C fine, CUDA/HIP refused. */
#include <math.h>
void sm_ip(int R, int C, float x[R][C])
{
#pragma fuse kernel(sm_ip)
	for (int r = 0; r < R; r++) {
		float mx = -INFINITY;
		for (int c = 0; c < C; c++) mx = fmaxf(mx, x[r][c]);
		float s = 0.0f;
		for (int c = 0; c < C; c++) { x[r][c] = expf(x[r][c] - mx); s += x[r][c]; }
		for (int c = 0; c < C; c++) x[r][c] /= s;
	}
}
