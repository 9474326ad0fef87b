/* Masks written three ways the tile lowering reads as key ranges, so that the steps a
 * CTA's rows all hide are skipped rather than computed and masked:
 * - a window per head read from an array (the start `i - win[h] + 1`, clamped at 0,
 *   stays the loop's start instead of becoming an offset of every key),
 * - a causal flag passed at run time (`causal && j > i`: the range switches per launch),
 *   with the masked score stored before a `continue` (`if (c) { s[j] = -INFINITY;
 *   continue; }`),
 * - a fill by a ternary then `if (s == -INFINITY) continue;`. */
#include <math.h>

void head_window(int B, int H, int N, const int win[H], const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		 const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(head_window) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				int lo = i - win[h] + 1;
				if (lo < 0)
					lo = 0;
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = lo; j <= i; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s *= 0.125f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}

void flag_causal(int B, int H, int N, int causal, const _Float16 q[B][N][H][64], const _Float16 k[B][N][H][64],
		 const _Float16 v[B][N][H][64], _Float16 o[B][N][H][64])
{
#pragma fuse kernel(flag_causal) parallel(b, i, h)
	for (int b = 0; b < B; b++)
		for (int i = 0; i < N; i++)
			for (int h = 0; h < H; h++) {
				float sc[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					if (causal && j > i) {
						sc[j] = -INFINITY;
						continue;
					}
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][i][h][d] * (float)k[b][j][h][d];
					sc[j] = s * 0.125f;
					if (sc[j] > mx)
						mx = sc[j];
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					sc[j] = expf(sc[j] - mx);
					sum += sc[j];
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++)
						acc += sc[j] * (float)v[b][j][h][d];
					o[b][i][h][d] = (_Float16)(acc / sum);
				}
			}
}

void fill_then_skip(int B, int H, int N, int W, float cap, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		    const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(fill_then_skip) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s = cap * tanhf(s * 0.125f / cap);
					s = (j > i || i - j >= W) ? -INFINITY : s;
					if (s == -INFINITY)
						continue;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
