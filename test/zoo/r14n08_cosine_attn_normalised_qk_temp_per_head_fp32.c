/* Swin-v2 cosine attention: q and k L2-normalised, logit scale per head (clamped exp). */
#include <math.h>
void cos_attn(int H, int N, const float q[H][N][64], const float k[H][N][64], const float v[H][N][64],
	      const float logit_scale[H], float o[H][N][64])
{
#pragma fuse kernel(cos_attn) parallel(h, i)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float qn = 0;
			for (int d = 0; d < 64; d++) qn += q[h][i][d] * q[h][i][d];
			qn = 1.0f / fmaxf(sqrtf(qn), 1e-12f);
			const float tau = expf(fminf(logit_scale[h], 4.6052f));
			float m = -INFINITY;
			for (int j = 0; j < N; j++) {
				float kn = 0, s = 0;
				for (int d = 0; d < 64; d++) { kn += k[h][j][d] * k[h][j][d]; s += q[h][i][d] * k[h][j][d]; }
				s = s * qn / fmaxf(sqrtf(kn), 1e-12f) * tau;
				m = fmaxf(m, s);
			}
			float l = 0, acc[64] = {0};
			for (int j = 0; j < N; j++) {
				float kn = 0, s = 0;
				for (int d = 0; d < 64; d++) { kn += k[h][j][d] * k[h][j][d]; s += q[h][i][d] * k[h][j][d]; }
				s = s * qn / fmaxf(sqrtf(kn), 1e-12f) * tau;
				float p = expf(s - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * v[h][j][d];
			}
			for (int d = 0; d < 64; d++) o[h][i][d] = acc[d] / l;
		}
}
