/* Decode with a learned null key/value (nn.MultiheadAttention's add_bias_kv, lucidrains'
 * null_kv): the online softmax starts from the null key's score, sum 1 and the null value
 * (`acc[d] = null_v[h][d]`). fusecc does not rescale an accumulator array seeded with a
 * value: it keeps the loop as written (one thread per row, with a warning), exact. */
#include <math.h>

#define D 64

void decode_null_kv(int B, int H, int L, const float q[B][H][D], const float k[B][L][H][D], const float v[B][L][H][D],
                    const float null_s[H], const float null_v[H][D], float o[B][H][D])
{
#pragma fuse kernel(decode_null_kv) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = null_s[h], l = 1.0f, acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = null_v[h][d];
			for (int t = 0; t < L; t++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += q[b][h][d] * k[b][t][h][d];
				s *= 0.125f;
				float mn = fmaxf(m, s);
				float c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < D; d++)
					acc[d] = acc[d] * c + p * v[b][t][h][d];
				m = mn;
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = acc[d] / l;
		}
}
