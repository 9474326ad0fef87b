/* dc_window_continue_splitk_fp16.c: Mistral-style sliding-window decode over a full (not
 * rolling) cache: only the last W of the cache_len[b] cached tokens are visible.
 * Style: the masked keys skipped with `if (j < n - W) continue;` in both passes, `const
 * int n = cache_len[b]` local, tokens-major cache [B][L][H][D], fp16, run-time D, the
 * output row as the accumulator (zeroed, += p * v, scaled by 1/l in place), splitk(j). */
#include <math.h>

void window_decode(int B, int H, int L, int D, int W, float scale,
		   const _Float16 q[B][H][D], const _Float16 k[B][L][H][D],
		   const _Float16 v[B][L][H][D], const int cache_len[B], float o[B][H][D])
{
#pragma fuse kernel(window_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int n = cache_len[b];
			float m = -INFINITY;
			for (int j = 0; j < n; j++) {
				if (j < n - W)
					continue;
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[b][h][d] * (float)k[b][j][h][d];
				m = fmaxf(m, s * scale);
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = 0.0f;
			float l = 0.0f;
			for (int j = 0; j < n; j++) {
				if (j < n - W)
					continue;
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[b][h][d] * (float)k[b][j][h][d];
				float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < D; d++)
					o[b][h][d] += p * (float)v[b][j][h][d];
			}
			const float inv = 1.0f / l;
			for (int d = 0; d < D; d++)
				o[b][h][d] *= inv;
		}
}
