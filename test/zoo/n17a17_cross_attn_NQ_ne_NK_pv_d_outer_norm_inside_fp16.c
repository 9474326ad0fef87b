/* Encoder-decoder cross attention (no mask): NQ decoder queries against NK encoder keys; P.V
 * written d-outer with the division by the denominator inside the key loop. D = 64. */
#include <math.h>

void cross_attn(int B, int H, int NQ, int NK, const _Float16 q[B][H][NQ][64], const _Float16 k[B][H][NK][64],
		const _Float16 v[B][H][NK][64], _Float16 o[B][H][NQ][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(cross_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < NK; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					mx = fmaxf(mx, s * scale);
				}
				float l = 0.0f;
				for (int j = 0; j < NK; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					l += expf(s * scale - mx);
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < NK; j++) {
						float s = 0.0f;
						for (int e = 0; e < 64; e++) s += (float)q[b][h][i][e] * (float)k[b][h][j][e];
						acc += expf(s * scale - mx) / l * (float)v[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)acc;
				}
			}
}
