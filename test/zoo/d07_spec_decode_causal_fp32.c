/* Speculative-decoding verify step: T draft tokens attend to a KV cache holding P past
 * tokens followed by the T new ones (cache length P + T), causal among the new tokens:
 * query t sees keys j <= P + t. fp32, int D. Style: loop names t/j/d; triangular-shifted
 * bound; scale parameter; scores in a local s[P + T]; fmaxf/expf; d-outer P.V; rolling(j). */
#include <math.h>

void spec_verify(int B, int H, int T, int P, int D, float scale,
		 const float q[B][H][T][D], const float k[B][H][P + T][D],
		 const float v[B][H][P + T][D], float o[B][H][T][D])
{
#pragma fuse kernel(spec_verify) parallel(b, h, t) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < T; t++) {
				float s[P + T];
				float m = -INFINITY;
				for (int j = 0; j <= P + t; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += q[b][h][t][d] * k[b][h][j][d];
					s[j] = dot * scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= P + t; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= P + t; j++)
						acc += s[j] * v[b][h][j][d];
					o[b][h][t][d] = acc / l;
				}
			}
}
