/* z02_decode_acc_init_fp16.c: decode attention whose P.V accumulator is zeroed by its
 * initialiser, as people write it in C: `float acc[D] = {0};`.
 * Style: fp16, `#define D 64`, a max pass, then one pass doing the sum and a j-outer P.V
 * into acc (q.k recomputed), normalised at the end. rolling(j). */
#include <math.h>

#define D 64

void decode_acc_init(int B, int H, int L, float scale,
                     const _Float16 q[B][H][D], const _Float16 k[B][H][L][D],
                     const _Float16 v[B][H][L][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(decode_acc_init) parallel(b, h) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float qk = 0.0f;
				for (int d = 0; d < D; d++)
					qk += (float)q[b][h][d] * (float)k[b][h][j][d];
				m = fmaxf(m, qk * scale);
			}
			float l = 0.0f;
			float acc[D] = {0};
			for (int j = 0; j < L; j++) {
				float qk = 0.0f;
				for (int d = 0; d < D; d++)
					qk += (float)q[b][h][d] * (float)k[b][h][j][d];
				float e = expf(qk * scale - m);
				l += e;
				for (int d = 0; d < D; d++)
					acc[d] += e * (float)v[b][h][j][d];
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
