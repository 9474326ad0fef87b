/* DeepSeek MLA prefill attention (non-absorbed form): q/k have head dim DK = 192 (128 nope +
 * 64 rope, already concatenated), v/o have DV = 128; causal; bf16. Style: two #defines for
 * the two head dims; scale 1/sqrt(DK) computed before the loop; causal as j <= i;
 * scores in s[N]; j-outer P.V into acc[DV]; rolling(j). */
#include <math.h>
#include "fusecc.h"

#define DK 192
#define DV 128

void mla_prefill(int B, int H, int N,
		 const fusecc_bf16 q[B][H][N][DK], const fusecc_bf16 k[B][H][N][DK],
		 const fusecc_bf16 v[B][H][N][DV], fusecc_bf16 o[B][H][N][DV])
{
	const float softmax_scale = 1.0f / sqrtf((float)DK);

#pragma fuse kernel(mla_prefill) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < DK; d++)
						dot += fusecc_bf16_to_float(q[b][h][i][d]) *
						       fusecc_bf16_to_float(k[b][h][j][d]);
					s[j] = dot * softmax_scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				float acc[DV];
				for (int d = 0; d < DV; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float p = expf(s[j] - m);
					l += p;
					for (int d = 0; d < DV; d++)
						acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < DV; d++)
					o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / l);
			}
}
