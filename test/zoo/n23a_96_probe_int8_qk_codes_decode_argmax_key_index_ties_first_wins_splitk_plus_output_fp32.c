/* Probe: int8-quantised q and k (per-tensor scales), a decode that also reports the most
 * attended key (argmax of the score, the FIRST key on ties: if (s > best)), e.g. for a
 * kNN-memory lookup. Integer dot products tie often; a split of the key loop must keep
 * the first index on ties. fp32 values, int32 index output. splitk(j). */
#include <math.h>
#include <stdint.h>

void int8_decode_argmax(int B, int H, int L, float q_scale, float k_scale, const int8_t q[B][H][64],
			const int8_t k[B][H][L][64], const float v[B][H][L][64], float o[B][H][64], int32_t top_key[B][H])
{
#pragma fuse kernel(int8_decode_argmax) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY, l = 0.0f, acc[64] = {0};
			float best = -INFINITY;
			int arg = 0;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += (float)q[b][h][d] * (float)k[b][h][j][d];
				s *= q_scale * k_scale * 0.125f;
				if (s > best) {
					best = s;
					arg = j;
				}
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 64; d++)
					acc[d] = acc[d] * c + p * v[b][h][j][d];
				m = mn;
			}
			for (int d = 0; d < 64; d++)
				o[b][h][d] = acc[d] / l;
			top_key[b][h] = arg;
		}
}
