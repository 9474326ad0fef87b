/* Thresholded (sparse) attention: keys whose scaled score is below thr are dropped with
 * `continue` in every pass (a data-dependent mask). fp32, D = 64, decode. */
#include <math.h>

void attn_thresh(int B, int H, int L, float thr, const float q[B][H][64], const float k[B][H][L][64],
		 const float v[B][H][L][64], float o[B][H][64])
{
#pragma fuse kernel(attn_thresh) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[64] = {0};
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][h][d] * k[b][h][j][d];
				s *= 0.125f;
				if (s < thr) continue;
				m = fmaxf(m, s);
			}
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][h][d] * k[b][h][j][d];
				s *= 0.125f;
				if (s < thr) continue;
				float p = expf(s - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * v[b][h][j][d];
			}
			for (int d = 0; d < 64; d++) o[b][h][d] = acc[d] / l;
		}
}
