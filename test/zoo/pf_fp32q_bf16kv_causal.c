/* pf_fp32q_bf16kv_causal.c: causal prefill against a bf16 KV cache with fp32 queries (q
 * comes straight out of an fp32 rotary embedding); fp32 output.
 * Style: BHND, `#define D 128`, bf16 through fusecc.h's conversions, the causal mask as a
 * ternary on the stored score, the max in the score loop, the sum in its own loop, P.V
 * d-outer with the exponential recomputed, normalised at the store. rolling(j). */
#include <math.h>
#include "fusecc.h"

#define D 128

void attn_mixed(int B, int H, int N, float scale,
		const float q[B][H][N][D], const fusecc_bf16 kc[B][H][N][D],
		const fusecc_bf16 vc[B][H][N][D], float o[B][H][N][D])
{
#pragma fuse kernel(attn_mixed) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += q[b][h][i][d] * fusecc_bf16_to_float(kc[b][h][j][d]);
					s[j] = (j <= i) ? dot * scale : -INFINITY;
					mx = fmaxf(mx, s[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++)
					sum += expf(s[j] - mx);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += expf(s[j] - mx) * fusecc_bf16_to_float(vc[b][h][j][d]);
					o[b][h][i][d] = acc / sum;
				}
			}
}
