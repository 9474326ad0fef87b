/* DeepSeek-V2 MLA prefill (non-absorbed): q = [q_nope(128) | q_pe(64)], k the same split,
 * v 128 wide; softmax_scale = 1/sqrt(192); causal; fp16. Two dots joined into one score. */
#include <math.h>

void mla_prefill(int B, int H, int N, const _Float16 q_nope[B][H][N][128], const _Float16 q_pe[B][H][N][64],
		 const _Float16 k_nope[B][H][N][128], const _Float16 k_pe[B][N][64],
		 const _Float16 v[B][H][N][128], _Float16 o[B][H][N][128])
{
	const float softmax_scale = 1.0f / sqrtf(192.0f);
#pragma fuse kernel(mla_prefill) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float s[N];
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float a = 0.0f;
					for (int d = 0; d < 128; d++) a += (float)q_nope[b][h][i][d] * (float)k_nope[b][h][j][d];
					for (int d = 0; d < 64; d++) a += (float)q_pe[b][h][i][d] * (float)k_pe[b][j][d];
					s[j] = a * softmax_scale;
					m = fmaxf(m, s[j]);
				}
				float l = 0.0f;
				for (int j = 0; j <= i; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				for (int d = 0; d < 128; d++) {
					float acc = 0.0f;
					for (int j = 0; j <= i; j++) acc += s[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
