/* PROBE (max initialised to 0): a student's decode attention whose running max starts at 0.0f, then
 * out += exp(s - max) / sum * v per term. Scores all below about -87 make sum subnormal. fp32. */
#include <math.h>
void decode_max0(int B, int H, int L, const float q[B][H][64], const float k[B][H][L][64], const float v[B][H][L][64],
		 float out[B][H][64])
{
#pragma fuse kernel(decode_max0) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float sc[L];
			float max = 0.0f;
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < 64; d++) s += q[b][h][d] * k[b][h][t][d];
				sc[t] = s / 8.0f;
				if (sc[t] > max) max = sc[t];
			}
			float sum = 0.0f;
			for (int t = 0; t < L; t++) sum += expf(sc[t] - max);
			for (int d = 0; d < 64; d++) {
				float r = 0.0f;
				for (int t = 0; t < L; t++) r += expf(sc[t] - max) / sum * v[b][h][t][d];
				out[b][h][d] = r;
			}
		}
}
