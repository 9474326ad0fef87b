/* ring_decode_len.c: decode over a ring-buffer KV cache of W slots (a sliding window):
 * sequence b holds len[b] <= W keys, starting at slot start[b] and wrapping around,
 * k[b][h][(start[b] + j) % W]. Which slot a key sits in bounds nothing about how many keys
 * there are, so the GPU launcher sizes the split-k chunks for W keys (the ring), and the
 * last chunk runs to len[b] (a longer window is legal C). An empty row gives zeros.
 * fp16, D = 64. */
#include <math.h>

#define D 64

void ring_decode(int B, int H, int W, float scale, const int start[B], const int len[B],
		 const _Float16 q[B][H][D], const _Float16 k[B][H][W][D],
		 const _Float16 v[B][H][W][D], _Float16 o[B][H][D])
{
#pragma fuse kernel(ring_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			float l = 0.0f;
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < len[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[b][h][d] * (float)k[b][h][(start[b] + j) % W][d];
				m = fmaxf(m, s * scale);
			}
			for (int j = 0; j < len[b]; j++) {
				float s = 0.0f;
				for (int d = 0; d < D; d++)
					s += (float)q[b][h][d] * (float)k[b][h][(start[b] + j) % W][d];
				float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < D; d++)
					acc[d] += p * (float)v[b][h][(start[b] + j) % W][d];
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = len[b] > 0 ? (_Float16)(acc[d] / l) : (_Float16)0.0f;
		}
}
