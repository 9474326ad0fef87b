/* FlashAttention varlen forward reference: packed q/k/v [TOTAL][H][64], int32 cu_seqlens,
 * relative rows (i within sequence s), causal within the sequence, exp2f with log2e folded. */
#include <math.h>
#include <stdint.h>

void varlen_fwd(int S, int TOTAL, int H, const int32_t cu_seqlens[S + 1], const _Float16 q[TOTAL][H][64],
		const _Float16 k[TOTAL][H][64], const _Float16 v[TOTAL][H][64], _Float16 o[TOTAL][H][64])
{
	const float sl2 = 0.125f * 1.44269504f;
#pragma fuse kernel(varlen_fwd) parallel(s, h, i) rolling(j)
	for (int s = 0; s < S; s++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < cu_seqlens[s + 1] - cu_seqlens[s]; i++) {
				const int base = cu_seqlens[s];
				float m = -INFINITY, l = 0.0f;
				for (int j = 0; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += (float)q[base + i][h][d] * (float)k[base + j][h][d];
					m = fmaxf(m, x * sl2);
				}
				for (int j = 0; j <= i; j++) {
					float x = 0.0f;
					for (int d = 0; d < 64; d++) x += (float)q[base + i][h][d] * (float)k[base + j][h][d];
					l += exp2f(x * sl2 - m);
				}
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++) {
						float x = 0.0f;
						for (int e = 0; e < 64; e++) x += (float)q[base + i][h][e] * (float)k[base + j][h][e];
						a += exp2f(x * sl2 - m) * (float)v[base + j][h][d];
					}
					o[base + i][h][d] = (_Float16)(a / l);
				}
			}
}
