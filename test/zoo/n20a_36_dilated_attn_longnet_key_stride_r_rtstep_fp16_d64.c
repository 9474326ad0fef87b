/* LongNet-style dilated attention inside a segment: query i attends keys j = i mod r, i mod r + r, ...
 * written as a loop over the dilated key index u with j = u * r + off, u < (N - off + r - 1) / r. */
#include <math.h>
void dilated_attn(int B, int H, int N, int r, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		  const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(dilated_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int off = i % r;
				const int nk = (N - off + r - 1) / r;
				float s[N];
				float m = -INFINITY;
				for (int u = 0; u < nk; u++) {
					float t = 0.0f;
					for (int d = 0; d < 64; d++) t += (float)q[b][h][i][d] * (float)k[b][h][u * r + off][d];
					s[u] = t * 0.125f;
					m = fmaxf(m, s[u]);
				}
				float l = 0.0f;
				for (int u = 0; u < nk; u++) l += expf(s[u] - m);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int u = 0; u < nk; u++) acc += expf(s[u] - m) * (float)v[b][h][u * r + off][d];
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
