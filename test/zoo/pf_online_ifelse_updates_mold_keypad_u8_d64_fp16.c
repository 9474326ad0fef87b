/* pf_online_ifelse_updates_mold_keypad_u8_d64_fp16: Milakov & Gimelshein's online normaliser
 * as a textbook carries it into attention: both arms update l and acc, the max set first in
 * its arm through an `m_old` copy (`float m_old = m; m = s; float c = expf(m_old - m); ...`),
 * padded keys skipped with `continue` (HuggingFace's uint8 attention_mask), a row with
 * every key masked written as zeros. fp16 storage, head dim 64, seeds -inf and 0. */
#include <math.h>
#include <stdint.h>
void attn_online(int B, int H, int N, float scale, const _Float16 q[B][H][N][64], const _Float16 k[B][H][N][64],
                 const _Float16 v[B][H][N][64], const uint8_t keep[B][N], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(attn_online) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY;
				float l = 0.0f;
				float acc[64];
				for (int d = 0; d < 64; d++)
					acc[d] = 0.0f;
				for (int j = 0; j < N; j++) {
					if (!keep[b][j])
						continue;
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					s = s * scale;
					if (s > m) {
						float m_old = m;
						m = s;
						float c = expf(m_old - m);
						l = l * c + 1.0f;
						for (int d = 0; d < 64; d++)
							acc[d] = acc[d] * c + (float)v[b][h][j][d];
					} else {
						l += expf(s - m);
						for (int d = 0; d < 64; d++)
							acc[d] += expf(s - m) * (float)v[b][h][j][d];
					}
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(l > 0.0f ? acc[d] / l : 0.0f);
			}
}
