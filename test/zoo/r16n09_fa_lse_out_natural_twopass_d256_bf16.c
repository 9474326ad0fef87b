/* FlashAttention's reference with softmax_lse returned next to O (natural log), non-causal,
 * head dim 256 (Gemma), bf16, written as a test-suite author: max pass, sum pass, PV pass. */
#include <math.h>
#include "fusecc.h"

void fa_ref_lse(int B, int H, int N, float softmax_scale, const fusecc_bf16 q[B][H][N][256],
		const fusecc_bf16 k[B][H][N][256], const fusecc_bf16 v[B][H][N][256], fusecc_bf16 out[B][H][N][256],
		float softmax_lse[B][H][N])
{
#pragma fuse kernel(fa_ref_lse) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float row_max = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 256; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					row_max = fmaxf(row_max, s * softmax_scale);
				}
				float row_sum = 0.0f;
				float acc[256];
				for (int d = 0; d < 256; d++) acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 256; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					float p = expf(s * softmax_scale - row_max);
					row_sum += p;
					for (int d = 0; d < 256; d++) acc[d] += p * fusecc_bf16_to_float(v[b][h][j][d]);
				}
				for (int d = 0; d < 256; d++) out[b][h][i][d] = fusecc_float_to_bf16(acc[d] / row_sum);
				softmax_lse[b][h][i] = row_max + logf(row_sum);
			}
}
