/* Decode that fills att[0] first and seeds the max with it, then the score loop from key 1
 * (avoiding -INFINITY), then exp/sum and P.V over all keys; D = 64 const int, fp16 cache. */
#include <math.h>

void decode_att0(int B, int H, int L, const _Float16 q[B][H][64], const _Float16 k[B][H][L][64],
		 const _Float16 v[B][H][L][64], _Float16 o[B][H][64])
{
	const int D = 64;
#pragma fuse kernel(decode_att0) parallel(b, h) splitk(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float att[L];
			float s0 = 0.0f;
			for (int d = 0; d < D; d++) s0 += (float)q[b][h][d] * (float)k[b][h][0][d];
			att[0] = s0 * 0.125f;
			float mx = att[0];
			for (int t = 1; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++) s += (float)q[b][h][d] * (float)k[b][h][t][d];
				att[t] = s * 0.125f;
				if (att[t] > mx) mx = att[t];
			}
			float sum = 0.0f;
			for (int t = 0; t < L; t++) { att[t] = expf(att[t] - mx); sum += att[t]; }
			for (int d = 0; d < D; d++) {
				float a = 0.0f;
				for (int t = 0; t < L; t++) a += att[t] * (float)v[b][h][t][d];
				o[b][h][d] = (_Float16)(a / sum);
			}
		}
}
