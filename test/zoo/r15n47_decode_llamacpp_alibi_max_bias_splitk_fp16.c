/* llama.cpp soft_max_ext ALiBi in a decode: m0 = 2^(-max_bias / n_head_log2), slope per head
 * from h < n_head_log2 ? m0^(h+1) : m1^(2(h - n_head_log2) + 1); bias slope * t; split-k. */
#include <math.h>
#include <stdint.h>

void alibi_decode(int B, int H, int L, float max_bias, const int32_t n_past[B],
		  const _Float16 q[B][H][128], const _Float16 k[B][H][L][128], const _Float16 v[B][H][L][128],
		  _Float16 o[B][H][128])
{
	const int n_head_log2 = 1 << (int)floorf(log2f((float)H));
	const float m0 = powf(2.0f, -max_bias / n_head_log2);
	const float m1 = powf(2.0f, -(max_bias / 2.0f) / n_head_log2);
#pragma fuse kernel(alibi_decode) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const float slope = h < n_head_log2 ? powf(m0, h + 1) : powf(m1, 2 * (h - n_head_log2) + 1);
			float w[L];
			float mx = -INFINITY;
			for (int t = 0; t < n_past[b]; t++) {
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)k[b][h][t][d];
				w[t] = s * 0.08838834764831845f + slope * (float)t;
				mx = fmaxf(mx, w[t]);
			}
			float sum = 0.0f;
			for (int t = 0; t < n_past[b]; t++) { w[t] = expf(w[t] - mx); sum += w[t]; }
			for (int d = 0; d < 128; d++) {
				float a = 0.0f;
				for (int t = 0; t < n_past[b]; t++) a += w[t] * (float)v[b][h][t][d];
				o[b][h][d] = (_Float16)(a / sum);
			}
		}
}
