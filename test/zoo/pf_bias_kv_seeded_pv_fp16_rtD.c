/* pf_bias_kv_seeded_pv_fp16_rtD.c: torch.nn.MultiheadAttention(add_bias_kv=True): a
 * learned key bias_k[h] and value bias_v[h] join every sequence as one more key.
 * Style: the extra key written before the loops: its score s0 by a loop over d, the max
 * seeded with it, the sum seeded through a local (float p0 = expf(s0 - m); float l =
 * p0;) and P.V d-outer with each output column's accumulator starting at the extra
 * key's value (float acc = p0 * bias_v[h][d];); fp16, run-time D, s[N] with the
 * exponentials stored back. rolling(j). */
#include <math.h>

void attn_bias_kv(int B, int H, int N, int D, float scale,
		  const _Float16 q[B][H][N][D], const _Float16 k[B][H][N][D],
		  const _Float16 v[B][H][N][D], const _Float16 bias_k[H][D],
		  const _Float16 bias_v[H][D], _Float16 o[B][H][N][D])
{
#pragma fuse kernel(attn_bias_kv) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float s0 = 0.0f;
				for (int d = 0; d < D; d++)
					s0 += (float)q[b][h][i][d] * (float)bias_k[h][d];
				s0 *= scale;
				float m = s0;
				for (int j = 0; j < N; j++) {
					float dot = 0.0f;
					for (int d = 0; d < D; d++)
						dot += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s[j] = dot * scale;
					m = fmaxf(m, s[j]);
				}
				float p0 = expf(s0 - m);
				float l = p0;
				for (int j = 0; j < N; j++) {
					s[j] = expf(s[j] - m);
					l += s[j];
				}
				for (int d = 0; d < D; d++) {
					float acc = p0 * (float)bias_v[h][d];
					for (int j = 0; j < N; j++)
						acc += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
