/* Beam-search decoding with cross-attention: the encoder memory is computed once per
 * source sentence and shared by its num_beams hypotheses, so decoder row b reads
 * enc_k[b / num_beams] instead of a num_beams-times expanded copy (fairseq's
 * reorder_encoder_out avoided). Decode: one query per (row, head); enc_len per sentence. */
#include <math.h>
#include <stdint.h>

void beam_cross_decode(int B, int num_beams, int H, int S, const _Float16 q[B * num_beams][H][64],
		       const _Float16 enc_k[B][H][S][64], const _Float16 enc_v[B][H][S][64], const int32_t enc_len[B],
		       _Float16 o[B * num_beams][H][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(beam_cross_decode) parallel(r, h) splitk(j)
	for (int r = 0; r < B * num_beams; r++)
		for (int h = 0; h < H; h++) {
			const int src = r / num_beams;
			float m = -INFINITY, l = 0.0f, acc[64] = {0};
			for (int j = 0; j < enc_len[src]; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += (float)q[r][h][d] * (float)enc_k[src][h][j][d];
				s *= scale;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 64; d++)
					acc[d] = acc[d] * c + p * (float)enc_v[src][h][j][d];
				m = mn;
			}
			for (int d = 0; d < 64; d++)
				o[r][h][d] = (_Float16)(acc[d] / l);
		}
}
