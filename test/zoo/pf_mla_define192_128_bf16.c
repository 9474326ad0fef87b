/* pf_mla_define192_128_bf16.c: MLA-style unmasked prefill (e.g. a cross-attention block)
 * with q.k over QK_DIM = 192 and V over V_DIM = 128, both `#define`d, bf16 storage.
 * Style: probabilities buffer p[N]: raw scaled scores first, max in a separate loop with
 * fmaxf, then exp written back into p[j] while summing, j-outer P.V into acc[V_DIM],
 * normalised after. rolling(j), tile(i:128, j:64). */
#include <math.h>
#include "fusecc.h"

#define QK_DIM 192
#define V_DIM 128

void mla_xattn_bf16(int B, int H, int NQ, int NK, float scale,
		    const fusecc_bf16 q[B][H][NQ][QK_DIM], const fusecc_bf16 k[B][H][NK][QK_DIM],
		    const fusecc_bf16 v[B][H][NK][V_DIM], fusecc_bf16 o[B][H][NQ][V_DIM])
{
#pragma fuse kernel(mla_xattn_bf16) parallel(b, h, i) tile(i:128, j:64) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQ; i++) {
				float p[NK];
				for (int j = 0; j < NK; j++) {
					float acc = 0.0f;
					for (int d = 0; d < QK_DIM; d++)
						acc += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					p[j] = acc * scale;
				}
				float m = -INFINITY;
				for (int j = 0; j < NK; j++)
					m = fmaxf(m, p[j]);
				float l = 0.0f;
				for (int j = 0; j < NK; j++) {
					p[j] = expf(p[j] - m);
					l += p[j];
				}
				float acc[V_DIM];
				for (int d = 0; d < V_DIM; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < NK; j++)
					for (int d = 0; d < V_DIM; d++)
						acc[d] += p[j] * fusecc_bf16_to_float(v[b][h][j][d]);
				for (int d = 0; d < V_DIM; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
