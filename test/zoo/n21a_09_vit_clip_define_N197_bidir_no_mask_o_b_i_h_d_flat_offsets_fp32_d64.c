/* ViT-B/16 / CLIP vision attention at 224px: 196 patches + CLS = 197 tokens, 12 heads of 64,
 * bidirectional, no mask; sizes as macros, q/k/v [B][H][197][64] and the output already in
 * [B][197][H][64] for the out projection. */
#include <math.h>
#define NTOK 197
#define NH 12
#define HD 64

void vit_attn(int B, const float q[B][NH][NTOK][HD], const float k[B][NH][NTOK][HD],
	      const float v[B][NH][NTOK][HD], float o[B][NTOK][NH][HD])
{
	const float scale = 0.125f;
#pragma fuse kernel(vit_attn)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < NH; h++)
			for (int i = 0; i < NTOK; i++) {
				float attn[NTOK];
				float mx = -INFINITY;
				for (int j = 0; j < NTOK; j++) {
					float s = 0.0f;
					for (int d = 0; d < HD; d++) s += q[b][h][i][d] * scale * k[b][h][j][d];
					attn[j] = s;
					mx = fmaxf(mx, s);
				}
				float den = 0.0f;
				for (int j = 0; j < NTOK; j++) { attn[j] = expf(attn[j] - mx); den += attn[j]; }
				for (int d = 0; d < HD; d++) {
					float acc = 0.0f;
					for (int j = 0; j < NTOK; j++) acc += attn[j] * v[b][h][j][d];
					o[b][i][h][d] = acc / den;
				}
			}
}
