/* StreamingLLM-style decode: a sink logit per head joins the softmax, and the number of
 * attended positions (the sink counts as one) is reported for logging. Split-k decode. */
#include <math.h>
#include <stdint.h>
void sink_decode(int B, int H, int L, const float sink[H], const uint8_t keep[B][L], const _Float16 q[B][H][64],
		 const _Float16 k[B][H][L][64], const _Float16 v[B][H][L][64], _Float16 o[B][H][64], int32_t n_att[B][H])
{
#pragma fuse kernel(sink_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = sink[h];
			int n = 1;
			for (int j = 0; j < L; j++) {
				if (!keep[b][j]) continue;
				float s = 0;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				m = fmaxf(m, s * 0.125f);
				n++;
			}
			float l = expf(sink[h] - m), acc[64] = {0};
			for (int j = 0; j < L; j++) {
				if (!keep[b][j]) continue;
				float s = 0;
				for (int d = 0; d < 64; d++) s += (float)q[b][h][d] * (float)k[b][h][j][d];
				float p = expf(s * 0.125f - m);
				l += p;
				for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][j][d];
			}
			n_att[b][h] = n;
			for (int d = 0; d < 64; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
