/* Gemma-2 style attention with logit soft-capping (prefill, causal), bf16, int D.
 * Style: scale computed before the loop; logits capped with cap * tanhf(x / cap); causal as a
 * conditional `if (j > i) x = -INFINITY;` after the cap; scores in a local s[N];
 * P.V with j outer into acc[D]; no strategy clause. */
#include <math.h>
#include "fusecc.h"

void softcap_attn(int B, int H, int N, int D, float softcap,
		  const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
		  const fusecc_bf16 v[B][H][N][D], fusecc_bf16 o[B][H][N][D])
{
	const float scale = 1.0f / sqrtf((float)D);

#pragma fuse kernel(softcap_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++)
						x += fusecc_bf16_to_float(q[b][h][i][d]) *
						     fusecc_bf16_to_float(k[b][h][j][d]);
					x = softcap * tanhf(x * scale / softcap);
					if (j > i)
						x = -INFINITY;
					s[j] = x;
					m = fmaxf(m, x);
				}
				float l = 0.0f;
				float acc[D];
				for (int d = 0; d < D; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float p = expf(s[j] - m);
					l += p;
					for (int d = 0; d < D; d++)
						acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < D; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
