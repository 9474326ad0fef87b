/* gpt-oss decode, one function for both layer kinds: is_sliding (an int flag per layer)
 * picks the window in the set-up (W = is_sliding ? sliding_window : a window covering the
 * cache); keys t in [len - W, len); the learned sink joins the softmax's denominator.
 * GQA by h / G, kv_len per sequence, fp16, D = 64. */
#include <math.h>
#include <stdint.h>

void gptoss_decode(int B, int H, int G, int Lmax, int is_sliding, int sliding_window, float sm_scale,
		   const _Float16 q[B][H][64], const _Float16 kc[B][H / G][Lmax][64], const _Float16 vc[B][H / G][Lmax][64],
		   const float sinks[H], const int32_t kv_len[B], _Float16 o[B][H][64])
{
	const int W = is_sliding ? sliding_window : Lmax;
#pragma fuse kernel(gptoss_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int len = kv_len[b];
			const int start = len - W > 0 ? len - W : 0;
			float m = sinks[h];
			float l = 0.0f, acc[64] = {0};
			for (int t = start; t < len; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += (float)q[b][h][d] * (float)kc[b][h / G][t][d];
				s *= sm_scale;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 64; d++)
					acc[d] = acc[d] * c + p * (float)vc[b][h / G][t][d];
				m = mn;
			}
			l += expf(sinks[h] - m);
			for (int d = 0; d < 64; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
