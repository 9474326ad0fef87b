/* Qwen3-Next / "gated attention" (Qiu et al. 2025): the attention output of each head is
 * multiplied elementwise by sigmoid(gate), the gate coming from the q projection
 * (gate[b][i][h][d]); written into the output store. GQA by h / G, causal, bshd, bf16. */
#include <math.h>
#include "fusecc.h"

void gated_attn(int B, int N, int H, int G, const fusecc_bf16 q[B][N][H][128], const fusecc_bf16 gate[B][N][H][128],
		const fusecc_bf16 k[B][N][H / G][128], const fusecc_bf16 v[B][N][H / G][128], fusecc_bf16 o[B][N][H][128])
{
	const float scaling = 0.08838834764831845f;
#pragma fuse kernel(gated_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[128] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 128; d++)
						s += fusecc_bf16_to_float(q[b][i][h][d]) * fusecc_bf16_to_float(k[b][j][h / G][d]);
					s *= scaling;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++)
						acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][j][h / G][d]);
					m = mn;
				}
				for (int d = 0; d < 128; d++) {
					const float g = fusecc_bf16_to_float(gate[b][i][h][d]);
					o[b][i][h][d] = fusecc_float_to_bf16(acc[d] / l * (1.0f / (1.0f + expf(-g))));
				}
			}
}
