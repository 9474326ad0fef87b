/* flash_attn_kvpacked_func's reference, ported by a PyTorch user: q is (B, Nq, H, D), kv is
 * (B, Nk, 2, H, D) with k = kv[:, :, 0] and v = kv[:, :, 1]; cross-attention, Nq != Nk,
 * no mask. Output (B, Nq, H, D). softmax_scale a parameter. */
#include <math.h>

void attn_kvpacked(int B, int Nq, int Nk, int H, float softmax_scale, const _Float16 q[B][Nq][H][64],
		   const _Float16 kv[B][Nk][2][H][64], _Float16 out[B][Nq][H][64])
{
#pragma fuse kernel(attn_kvpacked) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < Nq; i++)
			for (int h = 0; h < H; h++) {
				float s[Nk];
				float mx = -INFINITY;
				for (int j = 0; j < Nk; j++) {
					float acc = 0.0f;
					for (int d = 0; d < 64; d++)
						acc += (float)q[b][i][h][d] * (float)kv[b][j][0][h][d];
					s[j] = acc * softmax_scale;
					mx = fmaxf(mx, s[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < Nk; j++) {
					s[j] = expf(s[j] - mx);
					sum += s[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < Nk; j++)
						acc += s[j] * (float)kv[b][j][1][h][d];
					out[b][i][h][d] = (_Float16)(acc / sum);
				}
			}
}
