/* dc_pbuf_inv_rtD_fp32.c: decode attention in fp32 (meant for head dim 192).
 * Style: run-time `int D`, scores in p[L], max with fmaxf in its own loop, exp stored
 * back into p[j], the sum written sum = sum + p[j], then a reciprocal local
 * inv = 1.0f / sum between the passes and a d-outer P.V multiplied by inv.
 * splitk(j) given; parallel(b, h). */
#include <math.h>

void decode_fp32(int B, int H, int L, int D, float scale,
		 const float q[B][H][D], const float k[B][H][L][D],
		 const float v[B][H][L][D], float o[B][H][D])
{
#pragma fuse kernel(decode_fp32) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float p[L];
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += q[b][h][d] * k[b][h][j][d];
				p[j] = dot * scale;
			}
			float mx = -INFINITY;
			for (int j = 0; j < L; j++)
				mx = fmaxf(mx, p[j]);
			float sum = 0.0f;
			for (int j = 0; j < L; j++) {
				p[j] = expf(p[j] - mx);
				sum = sum + p[j];
			}
			const float inv = 1.0f / sum;
			for (int d = 0; d < D; d++) {
				float acc = 0.0f;
				for (int j = 0; j < L; j++)
					acc += p[j] * v[b][h][j][d];
				o[b][h][d] = acc * inv;
			}
		}
}
