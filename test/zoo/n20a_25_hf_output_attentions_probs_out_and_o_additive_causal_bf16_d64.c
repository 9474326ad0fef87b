/* HF eager with output_attentions=True: the normalised probabilities go to attn_probs[B][H][N][N] (fp32, as
 * returned) and O; causal via an additive mask computed inline (0 or finfo(float32).min). */
#include <math.h>
#include <float.h>
#include "fusecc.h"
void eager_probs(int B, int H, int N, const fusecc_bf16 q[B][H][N][64], const fusecc_bf16 k[B][H][N][64], const fusecc_bf16 v[B][H][N][64],
		 float attn_probs[B][H][N][N], fusecc_bf16 o[B][H][N][64])
{
#pragma fuse kernel(eager_probs) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float w[N];
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
					w[j] = s * 0.125f + (j <= i ? 0.0f : -FLT_MAX);
				}
				float m = -INFINITY;
				for (int j = 0; j < N; j++) m = fmaxf(m, w[j]);
				float l = 0.0f;
				for (int j = 0; j < N; j++) l += expf(w[j] - m);
				for (int j = 0; j < N; j++) attn_probs[b][h][i][j] = expf(w[j] - m) / l;
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += attn_probs[b][h][i][j] * fusecc_bf16_to_float(v[b][h][j][d]);
					o[b][h][i][d] = fusecc_float_to_bf16(acc);
				}
			}
}
