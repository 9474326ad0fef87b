/* Causal self-attention (prefill), bf16 storage, #define HEAD_DIM 128, layout [B][H][N][HEAD_DIM].
 * Style: causal mask as the triangular loop bound j <= i; scores recomputed in each pass (no
 * score buffer); log2e folded into a scale computed before the loop, exp2f; ternary max;
 * P.V with j outer into a local acc[HEAD_DIM]; explicit tile sizes. */
#include <math.h>
#include "fusecc.h"

#define HEAD_DIM 128

void causal_attn_bf16(int B, int H, int N,
		      const fusecc_bf16 q[B][H][N][HEAD_DIM],
		      const fusecc_bf16 k[B][H][N][HEAD_DIM],
		      const fusecc_bf16 v[B][H][N][HEAD_DIM],
		      fusecc_bf16 out[B][H][N][HEAD_DIM])
{
	const float qk_scale = 1.4426950408889634f / sqrtf((float)HEAD_DIM);

#pragma fuse kernel(causal_attn_bf16) parallel(b, h, i) tile(i:64, j:64) rolling(j)
	for (int b = 0; b < B; b++) {
		for (int h = 0; h < H; h++) {
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float sc = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						sc += fusecc_bf16_to_float(q[b][h][i][d]) *
						      fusecc_bf16_to_float(k[b][h][j][d]);
					sc *= qk_scale;
					mx = sc > mx ? sc : mx;
				}
				float den = 0.0f;
				float acc[HEAD_DIM];
				for (int d = 0; d < HEAD_DIM; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float sc = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						sc += fusecc_bf16_to_float(q[b][h][i][d]) *
						      fusecc_bf16_to_float(k[b][h][j][d]);
					float p = exp2f(sc * qk_scale - mx);
					den += p;
					for (int d = 0; d < HEAD_DIM; d++)
						acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < HEAD_DIM; d++)
					out[b][h][i][d] = fusecc_float_to_bf16(acc[d] / den);
			}
		}
	}
}
