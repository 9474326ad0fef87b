/* nanoGPT's y.transpose(1, 2).contiguous().view(B, T, C) folded into the attention store:
 * q, k, v are (B, nh, T, hs) and the output is written straight into the (B, T, C) hidden
 * layout at column h * hs + d, C = nh * 64, ready for c_proj. Causal, fp16. */
#include <math.h>

void causal_self_attn_merge(int B, int nh, int T, const _Float16 q[B][nh][T][64], const _Float16 k[B][nh][T][64],
			    const _Float16 v[B][nh][T][64], _Float16 y[B][T][nh * 64])
{
	const float att_scale = 1.0f / sqrtf(64.0f);
#pragma fuse kernel(causal_self_attn_merge) parallel(b, h, t) rolling(t2)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < nh; h++)
			for (int t = 0; t < T; t++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int t2 = 0; t2 <= t; t2++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][t][d] * (float)k[b][h][t2][d];
					s *= att_scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + p * (float)v[b][h][t2][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					y[b][t][h * 64 + d] = (_Float16)(acc[d] / l);
			}
}
