/* gpt-oss's attention sinks applied to precomputed scores [B][H][Q][K] (the eager fallback):
 * logits row plus one sink logit per head, max over both, softmax, the sink's column dropped. */
#include <math.h>
#include "fusecc.h"

void sink_softmax(int B, int H, int Q, int K, const fusecc_bf16 s[B][H][Q][K], const float sinks[H],
		  fusecc_bf16 p[B][H][Q][K])
{
#pragma fuse kernel(sink_softmax) parallel(b, h, q)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int q = 0; q < Q; q++) {
				float m = sinks[h];
				for (int k = 0; k < K; k++)
					m = fmaxf(m, fusecc_bf16_to_float(s[b][h][q][k]));
				float z = expf(sinks[h] - m);
				for (int k = 0; k < K; k++)
					z += expf(fusecc_bf16_to_float(s[b][h][q][k]) - m);
				for (int k = 0; k < K; k++)
					p[b][h][q][k] = fusecc_float_to_bf16(expf(fusecc_bf16_to_float(s[b][h][q][k]) - m) / z);
			}
}
