/* pf_local_bidir_abs_window_continue_fp16.c: bidirectional local attention (Longformer's
 * band without global tokens), the band written with stdlib's abs: `if (abs(i - j) > W)
 * continue;` in both passes. Style: fp16 storage, head dim 64 in the types, acc[64] = {0},
 * rolling(j). */
#include <math.h>
#include <stdlib.h>

void local_attn(int B, int H, int N, int W, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(local_attn) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < N; j++) {
					if (abs(i - j) > W) continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				for (int j = 0; j < N; j++) {
					if (abs(i - j) > W) continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					float p = expf(s * 0.125f - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
