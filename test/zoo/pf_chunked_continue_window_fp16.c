/* pf_chunked_continue_window_fp16.c: local attention of Llama-4 / Gemma ports, with the
 * chunk and a sliding window written as `continue` in each loop over the keys:
 * `if (j / C != i / C || j > i || i - j >= W) continue;` (run-time C and W). fp16, literal
 * head dim 64, scores kept in sc[N], three passes, P.V d-outer. The key range of a row
 * is [max(i / C * C, i - W + 1), i + 1); the chunk test stays per element. */
#include <math.h>

void chunked_window(int B, int H, int N, int C, int W, float scale,
		    const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
		    const _Float16 v[B][H][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(chunked_window) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					if (j / C != i / C || j > i || i - j >= W)
						continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					sc[j] = s * scale;
					m = fmaxf(m, sc[j]);
				}
				float l = 0.0f;
				for (int j = 0; j < N; j++) {
					if (j / C != i / C || j > i || i - j >= W)
						continue;
					l += expf(sc[j] - m);
				}
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) {
						if (j / C != i / C || j > i || i - j >= W)
							continue;
						acc += expf(sc[j] - m) * (float)v[b][h][j][d];
					}
					o[b][h][i][d] = (_Float16)(acc / l);
				}
			}
}
