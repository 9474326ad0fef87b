/* An HPC programmer's bshd attention: k[b][j][:][:] is one contiguous row of all heads, so
 * the key loop is outside the head loop and every head keeps its own running max, sum and
 * accumulator (m[H], l[H], acc[H][64], VLAs) per query row. Causal, fp16, D = 64. */
#include <math.h>

void attn_heads_inner(int B, int N, int H, const _Float16 q[B][N][H][64], const _Float16 k[B][N][H][64],
		      const _Float16 v[B][N][H][64], _Float16 o[B][N][H][64])
{
#pragma fuse kernel(attn_heads_inner) parallel(b, i)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++) {
			float m[H], l[H], acc[H][64];
			for (int h = 0; h < H; h++) {
				m[h] = -INFINITY;
				l[h] = 0.0f;
				for (int d = 0; d < 64; d++)
					acc[h][d] = 0.0f;
			}
			for (int j = 0; j <= i; j++)
				for (int h = 0; h < H; h++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					s *= 0.125f;
					float mn = fmaxf(m[h], s);
					float c = expf(m[h] - mn), p = expf(s - mn);
					l[h] = l[h] * c + p;
					for (int d = 0; d < 64; d++)
						acc[h][d] = acc[h][d] * c + p * (float)v[b][j][h][d];
					m[h] = mn;
				}
			for (int h = 0; h < H; h++)
				for (int d = 0; d < 64; d++)
					o[b][i][h][d] = (_Float16)(acc[h][d] / l[h]);
		}
}
