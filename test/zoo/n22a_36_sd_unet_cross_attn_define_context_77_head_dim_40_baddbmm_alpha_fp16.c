/* Stable Diffusion 1.5 UNet cross-attention (diffusers AttnProcessor): image tokens attend to the 77
 * text tokens; head_dim 40 at the first level (320 channels / 8 heads); baddbmm(alpha=scale). */
#include <math.h>
#define CTX 77
#define HD 40

void sd_cross_attn(int B, int H, int NQ, const _Float16 q[B][H][NQ][HD], const _Float16 k[B][H][CTX][HD],
		   const _Float16 v[B][H][CTX][HD], _Float16 o[B][H][NQ][HD])
{
	const float scale = 0.15811388300841897f; /* 40^-0.5 */
#pragma fuse kernel(sd_cross_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				float sc[CTX];
				float mx = -INFINITY;
				for (int j = 0; j < CTX; j++) {
					float s = 0.0f;
					for (int d = 0; d < HD; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					sc[j] = scale * s;
					mx = fmaxf(mx, sc[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < CTX; j++) {
					sc[j] = expf(sc[j] - mx);
					sum += sc[j];
				}
				for (int d = 0; d < HD; d++) {
					float acc = 0.0f;
					for (int j = 0; j < CTX; j++) acc += sc[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / sum);
				}
			}
}
