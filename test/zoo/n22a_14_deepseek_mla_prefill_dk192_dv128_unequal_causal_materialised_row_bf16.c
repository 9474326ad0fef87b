/* DeepSeek-V2 MLA prefill after up-projection: q and k have 192 dims (128 nope + 64 rope, already
 * concatenated), v has 128; softmax_scale = 192^-0.5; causal; materialised row as in the HF port. */
#include <math.h>
#include "fusecc.h"

void mla_prefill(int B, int H, int N, const fusecc_bf16 q[B][H][N][192], const fusecc_bf16 k[B][H][N][192],
		 const fusecc_bf16 v[B][H][N][128], fusecc_bf16 o[B][H][N][128])
{
	const float softmax_scale = 0.07216878364870322f;
#pragma fuse kernel(mla_prefill) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float p[N];
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 192; d++)
						s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					p[j] = s * softmax_scale;
					mx = fmaxf(mx, p[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j <= i; j++) {
					p[j] = expf(p[j] - mx);
					sum += p[j];
				}
				for (int e = 0; e < 128; e++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++)
						acc += p[j] * fusecc_bf16_to_float(v[b][h][j][e]);
					o[b][h][i][e] = fusecc_float_to_bf16(acc / sum);
				}
			}
}
