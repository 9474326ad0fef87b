/* A decode step's softmax over cached scores att[B][H][L] (fp16) up to each sequence's position
 * pos[b] inclusive (llama2.c's `softmax(att, pos + 1)` batched), the tail zeroed in the same loop. */
#include <math.h>
#include <stdint.h>

void decode_softmax(int B, int H, int L, const int32_t pos[B], const _Float16 att[B][H][L], _Float16 p[B][H][L])
{
#pragma fuse kernel(decode_softmax) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int t = 0; t <= pos[b]; t++)
				m = fmaxf(m, (float)att[b][h][t]);
			float s = 0.0f;
			for (int t = 0; t <= pos[b]; t++)
				s += expf((float)att[b][h][t] - m);
			for (int t = 0; t < L; t++)
				p[b][h][t] = t <= pos[b] ? (_Float16)(expf((float)att[b][h][t] - m) / s) : (_Float16)0.0f;
		}
}
