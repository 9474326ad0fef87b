/* RMSNorm backward dx: rstd recomputed, dot(dy*w, x) reduction, then dx. */
#include <math.h>
void rms_bwd(int R, int C, float eps, const float x[R][C], const float w[C], const float dy[R][C], float dx[R][C])
{
#pragma fuse kernel(rms_bwd) parallel(r)
	for (int r = 0; r < R; r++) {
		float ss = 0;
		for (int c = 0; c < C; c++) ss += x[r][c] * x[r][c];
		float rstd = 1.0f / sqrtf(ss / C + eps);
		float dot = 0;
		for (int c = 0; c < C; c++) dot += dy[r][c] * w[c] * x[r][c];
		for (int c = 0; c < C; c++)
			dx[r][c] = rstd * (dy[r][c] * w[c] - x[r][c] * rstd * rstd * dot / C);
	}
}
