/* dc_scale_before_d256_fp16.c: decode attention for head dim 256 (Gemma), fp16.
 * Style: `#define HD 256`, the scale computed at the top of the function from HD, a
 * local copy of the query row in fp32 (qf[HD]) taken before the key loop, stored scores,
 * max / sum / d-outer P.V normalised after. splitk(j) and tile(j:32). */
#include <math.h>

#define HD 256

void decode_d256(int B, int H, int L,
		 const _Float16 q[B][H][HD], const _Float16 k[B][H][L][HD],
		 const _Float16 v[B][H][L][HD], _Float16 o[B][H][HD])
{
	const float scale = 1.0f / sqrtf((float)HD);
#pragma fuse kernel(decode_d256) parallel(b, h) tile(j:32) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float qf[HD];
			for (int d = 0; d < HD; d++)
				qf[d] = (float)q[b][h][d];
			float s[L];
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < HD; d++)
					dot += qf[d] * (float)k[b][h][j][d];
				s[j] = dot * scale;
			}
			float m = -INFINITY;
			for (int j = 0; j < L; j++)
				m = fmaxf(m, s[j]);
			float l = 0.0f;
			for (int j = 0; j < L; j++)
				l += expf(s[j] - m);
			for (int d = 0; d < HD; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++)
					acc += expf(s[j] - m) * (float)v[b][h][j][d];
				o[b][h][d] = (_Float16)(acc / l);
			}
		}
}
