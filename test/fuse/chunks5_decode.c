/* A decode with a chunk count given, splitk(j:5), that divides neither the length nor a
 * tile. In the fused C the last chunks are empty when L < 5 and the merge must absorb them
 * (an empty chunk contributes the identity); on the GPU chunks are rounded up to whole
 * steps, so fewer than five may run. P.V with d inside j into acc[D], D = 64. */
#include <math.h>

#define D 64

void chunks5_decode(int B, int H, int L, float scale, const _Float16 q[B][H][D], const _Float16 k[B][H][L][D],
		    const _Float16 v[B][H][L][D], float o[B][H][D])
{
#pragma fuse kernel(chunks5_decode) parallel(b, h) splitk(j:5)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[b][h][d] * (float)k[b][h][j][d];
				m = fmaxf(m, scale * s);
			}
			float l = 0.0f;
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[b][h][d] * (float)k[b][h][j][d];
				float p = expf(scale * s - m);
				l += p;
				for (int d = 0; d < D; d++)
					acc[d] += p * (float)v[b][h][j][d];
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = acc[d] / l;
		}
}
