/* Swin-V2 scaled cosine attention in one window: s = cos(q, k) * exp(min(logit_scale[h], log(100))),
 * the norms computed on the fly (q's once per row, k's per key), plus the relative position bias
 * already gathered to [H][N][N]; head dim 32; fp32; bidirectional within the window. */
#include <math.h>

void swinv2_attn(int B, int H, int N, const float q[B][H][N][32], const float k[B][H][N][32], const float v[B][H][N][32],
		 const float logit_scale[H], const float rel_bias[H][N][N], float o[B][H][N][32])
{
#pragma fuse kernel(swinv2_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const float ls = expf(fminf(logit_scale[h], 4.605170185988091f));
				float qn = 0.0f;
				for (int d = 0; d < 32; d++) qn += q[b][h][i][d] * q[b][h][i][d];
				qn = fmaxf(sqrtf(qn), 1e-12f);
				float a[N], mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f, kn = 0.0f;
					for (int d = 0; d < 32; d++) {
						dot += q[b][h][i][d] * k[b][h][j][d];
						kn += k[b][h][j][d] * k[b][h][j][d];
					}
					kn = fmaxf(sqrtf(kn), 1e-12f);
					a[j] = dot / (qn * kn) * ls + rel_bias[h][i][j];
					mx = fmaxf(mx, a[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					a[j] = expf(a[j] - mx);
					sum += a[j];
				}
				for (int d = 0; d < 32; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += a[j] * v[b][h][j][d];
					o[b][h][i][d] = acc / sum;
				}
			}
}
