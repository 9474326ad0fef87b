/* HF eager decode with output_attentions: the probabilities are returned [B][H][L] (fp16) and
 * the output is computed from the fp16-rounded probabilities, as eager PyTorch does. */
#include <math.h>

void eager_decode(int B, int H, int L, const _Float16 q[B][H][64], const _Float16 k[B][H][L][64],
		  const _Float16 v[B][H][L][64], _Float16 attn_w[B][H][L], _Float16 o[B][H][64])
{
#pragma fuse kernel(eager_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float t = 0.0f;
				for (int d = 0; d < 64; d++) t += (float)q[b][h][d] * (float)k[b][h][j][d];
				s[j] = t * 0.125f;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			for (int j = 0; j < L; j++) l += expf(s[j] - m);
			for (int j = 0; j < L; j++) attn_w[b][h][j] = (_Float16)(expf(s[j] - m) / l);
			for (int d = 0; d < 64; d++) {
				float a = 0.0f;
				for (int j = 0; j < L; j++) a += (float)attn_w[b][h][j] * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)a;
			}
		}
}
