/* HPC style: an OpenMP `parallel for collapse(3)` kept between the fuse pragma and the loop
 * (the code ran on CPUs first); ViT with 4 register tokens: 197 + 4 = 201 tokens, bidirectional,
 * bf16, output [B][201][H][64]. */
#include <math.h>
#include "fusecc.h"

void vit_reg_attn(int B, int H, const fusecc_bf16 q[B][H][201][64], const fusecc_bf16 k[B][H][201][64],
		  const fusecc_bf16 v[B][H][201][64], fusecc_bf16 o[B][201][H][64])
{
#pragma fuse kernel(vit_reg_attn) parallel(b, h, i)
#pragma omp parallel for collapse(3)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < 201; i++) {
				float s[201], mx = -INFINITY;
				for (int j = 0; j < 201; j++) {
					float a = 0.0f;
					for (int d = 0; d < 64; d++) a += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s[j] = a * 0.125f;
					mx = fmaxf(mx, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < 201; j++) l += expf(s[j] - mx);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < 201; j++) acc += expf(s[j] - mx) * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][i][h][d] = fusecc_float_to_bf16(acc / l);
				}
			}
}
