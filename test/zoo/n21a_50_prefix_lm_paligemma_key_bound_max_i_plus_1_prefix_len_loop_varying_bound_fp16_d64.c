/* PaliGemma's prefix-LM mask written as the key loop's bound: the image + prefix tokens
 * (prefix_len) are bidirectional, the suffix causal, so query i sees keys j < max(i + 1, prefix_len). */
#include <math.h>

void prefix_lm(int B, int H, int N, int prefix_len, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
	       const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(prefix_lm) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int hi = i + 1 > prefix_len ? i + 1 : prefix_len;
				float sc[N], mx = -INFINITY;
				for (int j = 0; j < hi; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					sc[j] = s * 0.125f;
					mx = fmaxf(mx, sc[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < hi; j++) l += expf(sc[j] - mx);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < hi; j++) acc += expf(sc[j] - mx) * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
