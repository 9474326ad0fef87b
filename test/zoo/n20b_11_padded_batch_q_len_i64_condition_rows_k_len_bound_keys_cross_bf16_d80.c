/* A padded batch with per-sequence lengths as a seq2seq C++ port keeps them: query rows past
 * q_len[b] are left alone (an `if` around the whole row), the keys loop bounded by k_len[b]
 * (int64, from torch.LongTensor); cross attention, run-time D = 80 in practice. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void padded_cross_attn(int B, int H, int LQ, int LK, int D, float scale,
		const fusecc_bf16 q[B][H][LQ][D], const fusecc_bf16 k[B][H][LK][D], const fusecc_bf16 v[B][H][LK][D],
		const int64_t q_len[B], const int64_t k_len[B], fusecc_bf16 o[B][H][LQ][D])
{
#pragma fuse kernel(padded_cross_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < LQ; i++) {
				if (i < q_len[b]) {
					float m = -INFINITY, den = 0.0f, acc[D];
					for (int d = 0; d < D; d++) acc[d] = 0.0f;
					for (int64_t j = 0; j < k_len[b]; j++) {
						float s = 0.0f;
						for (int d = 0; d < D; d++)
							s += fusecc_bf16_to_float(q[b][h][i][d]) * fusecc_bf16_to_float(k[b][h][j][d]);
						s *= scale;
						float mn = s > m ? s : m;
						float c = expf(m - mn), p = expf(s - mn);
						den = den * c + p;
						for (int d = 0; d < D; d++) acc[d] = acc[d] * c + p * fusecc_bf16_to_float(v[b][h][j][d]);
						m = mn;
					}
					for (int d = 0; d < D; d++) o[b][h][i][d] = fusecc_float_to_bf16(acc[d] / den);
				}
			}
}
