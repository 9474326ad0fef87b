/* dc_window_clamp_rtD_fp16.c: sliding-window decode: the new token (position L - 1) sees
 * only the last W cache entries.
 * Style: fp16, run-time `int D`, the window start as a clamped local inside the region
 * (int lo = L - W; if (lo < 0) lo = 0;), stored scores over absolute positions, max /
 * sum / j-outer P.V into acc[D], normalised after. splitk(j). */
#include <math.h>

void swa_decode(int B, int H, int L, int W, int D, float scale,
		const _Float16 q[B][H][D], const _Float16 k[B][H][L][D],
		const _Float16 v[B][H][L][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(swa_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			int lo = L - W;
			if (lo < 0)
				lo = 0;
			float s[L];
			for (int j = lo; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] = dot * scale;
			}
			float m = -INFINITY;
			for (int j = lo; j < L; j++)
				m = fmaxf(m, s[j]);
			float l = 0.0f;
			for (int j = lo; j < L; j++)
				l += expf(s[j] - m);
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = lo; j < L; j++) {
				float p = expf(s[j] - m);
				for (int d = 0; d < D; d++)
					acc[d] += p * (float)v[b][h][j][d];
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
