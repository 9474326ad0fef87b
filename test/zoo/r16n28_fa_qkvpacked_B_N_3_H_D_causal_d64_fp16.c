/* flash_attn_qkvpacked_func's reference: q, k, v packed as qkv[B][N][3][H][64] (one projection
 * output), causal, softmax_scale from a parameter, fp16; a test author's loops. */
#include <math.h>

void qkvpacked(int B, int N, int H, float softmax_scale, const _Float16 qkv[B][N][3][H][64], _Float16 out[B][N][H][64])
{
#pragma fuse kernel(qkvpacked) parallel(b, i, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float m = -INFINITY, l = 0.0f, acc[64];
				for (int d = 0; d < 64; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)qkv[b][i][0][h][d] * (float)qkv[b][j][1][h][d];
					s *= softmax_scale;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)qkv[b][j][2][h][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++) out[b][i][h][d] = (_Float16)(acc[d] / l);
			}
}
