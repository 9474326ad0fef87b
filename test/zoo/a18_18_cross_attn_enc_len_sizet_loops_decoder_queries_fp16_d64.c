/* Whisper-style cross attention: decoder queries (Nq) against encoder keys (Nk) with a per-batch
 * number of valid encoder frames; size_t loop counters and ++j, the scale applied to q first. */
#include <math.h>
#include <stddef.h>

void cross_attention(size_t B, size_t H, size_t Nq, size_t Nk, const int enc_len[B], const _Float16 q[B][H][Nq][64],
		     const _Float16 k[B][H][Nk][64], const _Float16 v[B][H][Nk][64], _Float16 o[B][H][Nq][64])
{
#pragma fuse kernel(cross_attention) parallel(b, h, i)
	for (size_t b = 0; b < B; ++b)
		for (size_t h = 0; h < H; ++h)
			for (size_t i = 0; i < Nq; ++i) {
				float qs[64];
				for (size_t d = 0; d < 64; ++d) qs[d] = (float)q[b][h][i][d] * 0.125f;
				float m = -INFINITY;
				for (size_t j = 0; j < (size_t)enc_len[b]; ++j) {
					float s = 0.0f;
					for (size_t d = 0; d < 64; ++d) s += qs[d] * (float)k[b][h][j][d];
					m = fmaxf(m, s);
				}
				float l = 0.0f, acc[64] = {0};
				for (size_t j = 0; j < (size_t)enc_len[b]; ++j) {
					float s = 0.0f;
					for (size_t d = 0; d < 64; ++d) s += qs[d] * (float)k[b][h][j][d];
					const float p = expf(s - m);
					l += p;
					for (size_t d = 0; d < 64; ++d) acc[d] += p * (float)v[b][h][j][d];
				}
				for (size_t d = 0; d < 64; ++d) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
