/* Encoder-decoder cross-attention with multi-query K/V (one shared head for the encoder
 * memory, as PaLI/T5-MQA variants do): q (B, H, Nq, 256), k and v (B, Nk, 256). fp16. */
#include <math.h>

void cross_mqa(int B, int H, int Nq, int Nk, const _Float16 q[B][H][Nq][256], const _Float16 mem_k[B][Nk][256],
	       const _Float16 mem_v[B][Nk][256], _Float16 o[B][H][Nq][256])
{
	const float scale = 0.0625f;
#pragma fuse kernel(cross_mqa) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Nq; i++) {
				float m = -INFINITY, l = 0.0f, acc[256] = {0};
				for (int j = 0; j < Nk; j++) {
					float s = 0.0f;
					for (int d = 0; d < 256; d++)
						s += (float)q[b][h][i][d] * (float)mem_k[b][j][d];
					s *= scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 256; d++)
						acc[d] = acc[d] * c + p * (float)mem_v[b][j][d];
					m = mn;
				}
				for (int d = 0; d < 256; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
