/* Probe: a memory-saving student keeps the online-softmax accumulator in the fp16 output
 * row itself: o is zeroed, then for every key o = o * corr + p * v (rounded to fp16 at each
 * store), and divided by l at the end. The per-key fp16 rounding is part of what C computes. */
#include <math.h>

void attn_acc_in_out(int B, int H, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		     const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(attn_acc_in_out) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)0.0f;
				float m = -INFINITY, l = 0.0f;
				for (int j = 0; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.125f;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++)
						o[b][h][i][d] = (_Float16)((float)o[b][h][i][d] * c + p * (float)v[b][h][j][d]);
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)((float)o[b][h][i][d] / l);
			}
}
