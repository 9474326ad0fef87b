/* StreamingLLM decode: the first NSINK cache tokens always attended, plus the last W tokens
 * of each sequence's cache (lens int32), split-k; written with continue. */
#include <math.h>
#include <stdint.h>

void stream_decode(int B, int H, int L, int W, int NSINK, float scale, const int32_t lens[B],
		   const _Float16 q[B][H][128], const _Float16 kc[B][H][L][128],
		   const _Float16 vc[B][H][L][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(stream_decode) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float m = -INFINITY;
			for (int j = 0; j < lens[b]; j++) {
				if (j >= NSINK && j < lens[b] - W) continue;
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)kc[b][h][j][d];
				m = fmaxf(m, s * scale);
			}
			float l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int j = 0; j < lens[b]; j++) {
				if (j >= NSINK && j < lens[b] - W) continue;
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)kc[b][h][j][d];
				float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < 128; d++) acc[d] += p * (float)vc[b][h][j][d];
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
