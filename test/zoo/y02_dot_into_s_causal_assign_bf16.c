/* y02_dot_into_s_causal_assign_bf16.c: causal prefill (the mask as the loop bound,
 * j <= i) with the score accumulated in the score buffer and scaled by reassignment:
 * scores[j] = 0; scores[j] += q * k; scores[j] = scores[j] * scale.
 * Style: bf16 storage read with fusecc_bf16_to_float, #define HEAD_DIM 128, scale computed
 * before the region from the head dim, max in its own loop, exp into a second buffer p[N],
 * j-outer P.V into acc[HEAD_DIM]. rolling(j), parallel(b, h, i), no tile. */
#include <math.h>
#include "fusecc.h"

#define HEAD_DIM 128

void causal_dot_into_s(int B, int H, int N,
		       const fusecc_bf16 q[B][H][N][HEAD_DIM], const fusecc_bf16 k[B][H][N][HEAD_DIM],
		       const fusecc_bf16 v[B][H][N][HEAD_DIM], fusecc_bf16 out[B][H][N][HEAD_DIM])
{
	const float scale = 1.0f / sqrtf((float)HEAD_DIM);

#pragma fuse kernel(causal_dot_into_s) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++) {
		for (int h = 0; h < H; h++) {
			for (int i = 0; i < N; i++) {
				float scores[N], p[N];
				for (int j = 0; j <= i; j++) {
					scores[j] = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++)
						scores[j] += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					scores[j] = scores[j] * scale;
				}
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++)
					mx = fmaxf(mx, scores[j]);
				float sum = 0.0f;
				for (int j = 0; j <= i; j++) {
					p[j] = expf(scores[j] - mx);
					sum += p[j];
				}
				float acc[HEAD_DIM];
				for (int d = 0; d < HEAD_DIM; d++)
					acc[d] = 0.0f;
				for (int j = 0; j <= i; j++)
					for (int d = 0; d < HEAD_DIM; d++)
						acc[d] += p[j] * fusecc_bf16_to_float(v[b][h][j][d]);
				for (int d = 0; d < HEAD_DIM; d++)
					out[b][h][i][d] = fusecc_float_to_bf16(acc[d] / sum);
			}
		}
	}
}
