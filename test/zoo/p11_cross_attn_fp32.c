/* Cross-attention (decoder queries over encoder keys), fp32, Lq != Lk, int D.
 * Style: query loop named t, key loop named s, dim loop c; scale parameter; attention weights
 * in a local w[Lk]; fmaxf/expf; normalisation folded into the weights before P.V (d outer). */
#include <math.h>

void cross_attn(int B, int H, int Lq, int Lk, int D, float scale,
		const float q[B][H][Lq][D], const float k[B][H][Lk][D],
		const float v[B][H][Lk][D], float o[B][H][Lq][D])
{
#pragma fuse kernel(cross_attn) parallel(b, h, t) rolling(s)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < Lq; t++) {
				float w[Lk];
				float mx = -INFINITY;
				for (int s = 0; s < Lk; s++) {
					float dot = 0.0f;
					for (int c = 0; c < D; c++)
						dot += q[b][h][t][c] * k[b][h][s][c];
					w[s] = dot * scale;
					mx = fmaxf(mx, w[s]);
				}
				float z = 0.0f;
				for (int s = 0; s < Lk; s++) {
					w[s] = expf(w[s] - mx);
					z += w[s];
				}
				for (int s = 0; s < Lk; s++)
					w[s] = w[s] / z;
				for (int c = 0; c < D; c++) {
					float acc = 0.0f;
					for (int s = 0; s < Lk; s++)
						acc += w[s] * v[b][h][s][c];
					o[b][h][t][c] = acc;
				}
			}
}
