/* pf_sinks_extra_column_causal_bf16_rtD.c: gpt-oss attention sinks, causal prefill. Each
 * head has a learned sink logit that joins the softmax as an extra column
 * (torch.cat([QK, sink], -1).softmax(-1)[..., :-1]): it enters the max and the
 * denominator but carries no value.
 * Style: the natural port of the extra column: the max seeded with the sink
 * (float mx = sinks[h];) and the denominator starting at the sink's exponential
 * (float denom = expf(sinks[h] - mx);) before the sum loop; bf16 storage, run-time D,
 * scores materialised in s[N] with the exponentials stored back, `if (s > mx) mx = s;`,
 * P.V d-outer. rolling(j). */
#include <math.h>
#include "fusecc.h"

void attn_sinks_prefill(int B, int H, int N, int D, float sm_scale,
			const fusecc_bf16 q[B][H][N][D], const fusecc_bf16 k[B][H][N][D],
			const fusecc_bf16 v[B][H][N][D], const float sinks[H],
			fusecc_bf16 out[B][H][N][D])
{
#pragma fuse kernel(attn_sinks_prefill) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float mx = sinks[h];
				for (int j = 0; j <= i; j++) {
					float acc = 0.f;
					for (int d = 0; d < D; d++)
						acc += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					s[j] = acc * sm_scale;
					if (s[j] > mx)
						mx = s[j];
				}
				float denom = expf(sinks[h] - mx);
				for (int j = 0; j <= i; j++) {
					s[j] = expf(s[j] - mx);
					denom += s[j];
				}
				for (int d = 0; d < D; d++) {
					float o = 0.f;
					for (int j = 0; j <= i; j++)
						o += s[j] * fusecc_bf16_to_float(v[b][h][j][d]);
					out[b][h][i][d] = fusecc_float_to_bf16(o / denom);
				}
			}
}
