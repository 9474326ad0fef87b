/* Llama / GPT-NeoX rotary (rotate_half: x * cos + cat(-x2, x1) * sin) applied inside the region to
 * q and to each key, positions from position_ids (int64) indexing a cos/sin cache [max_pos][128];
 * the rotated q row kept in a local, each rotated key computed in the dot. Causal, [B][H][N][128]. */
#include <math.h>
#include <stdint.h>

void rope_attn(int B, int H, int N, int max_pos, const int64_t position_ids[B][N],
	       const float cos_cache[max_pos][128], const float sin_cache[max_pos][128],
	       const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128], const _Float16 v[B][H][N][128],
	       _Float16 o[B][H][N][128])
{
#pragma fuse kernel(rope_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int64_t pi = position_ids[b][i];
				float qr[128];
				for (int d = 0; d < 64; d++) {
					qr[d] = (float)q[b][h][i][d] * cos_cache[pi][d] - (float)q[b][h][i][d + 64] * sin_cache[pi][d];
					qr[d + 64] = (float)q[b][h][i][d + 64] * cos_cache[pi][d + 64] + (float)q[b][h][i][d] * sin_cache[pi][d + 64];
				}
				float m = -INFINITY, l = 0.0f, acc[128];
				for (int d = 0; d < 128; d++) acc[d] = 0.0f;
				for (int j = 0; j <= i; j++) {
					const int64_t pj = position_ids[b][j];
					float s = 0.0f;
					for (int d = 0; d < 64; d++) {
						float k1 = (float)k[b][h][j][d], k2 = (float)k[b][h][j][d + 64];
						s += qr[d] * (k1 * cos_cache[pj][d] - k2 * sin_cache[pj][d]);
						s += qr[d + 64] * (k2 * cos_cache[pj][d + 64] + k1 * sin_cache[pj][d + 64]);
					}
					s *= 0.08838834764831845f;
					float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)v[b][h][j][d];
					m = mn;
				}
				for (int d = 0; d < 128; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
