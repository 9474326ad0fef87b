/* Encoder-decoder cross attention (Nq decoder rows against Nk encoder frames), logits divided by a
 * temperature parameter as a contrastive-learning person writes it; head dim 80 (Phi-2 size). */
#include <math.h>

void xattn_temp(int B, int H, int NQ, int NK, float temperature, const float q[B][H][NQ][80],
		const float k[B][H][NK][80], const float v[B][H][NK][80], float o[B][H][NQ][80])
{
#pragma fuse kernel(xattn_temp) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < NK; j++) {
					float s = 0.0f;
					for (int d = 0; d < 80; d++) s += q[b][h][i][d] * k[b][h][j][d];
					mx = fmaxf(mx, s / temperature);
				}
				float den = 0.0f;
				float acc[80] = {0};
				for (int j = 0; j < NK; j++) {
					float s = 0.0f;
					for (int d = 0; d < 80; d++) s += q[b][h][i][d] * k[b][h][j][d];
					float e = expf(s / temperature - mx);
					den += e;
					for (int d = 0; d < 80; d++) acc[d] += e * v[b][h][j][d];
				}
				for (int d = 0; d < 80; d++) o[b][h][i][d] = acc[d] / den;
			}
}
