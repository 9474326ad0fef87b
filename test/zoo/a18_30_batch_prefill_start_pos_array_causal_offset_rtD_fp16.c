/* Batched prefill on top of a cache, as a server's reference does: each sequence b already holds
 * start_pos[b] cached tokens, its Nq new queries sit after them, and query i sees keys
 * j <= start_pos[b] + i of the cache (which has room for MAXK). Run-time head dim. */
#include <math.h>

void prefill_on_cache(int B, int H, int Nq, int MAXK, int D, const int start_pos[B], const _Float16 q[B][H][Nq][D],
		      const _Float16 kc[B][H][MAXK][D], const _Float16 vc[B][H][MAXK][D], _Float16 o[B][H][Nq][D])
{
	const float scale = 1.0f / sqrtf((float)D);
#pragma fuse kernel(prefill_on_cache) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Nq; i++) {
				const int last = start_pos[b] + i;
				float s[MAXK];
				float m = -INFINITY;
				for (int j = 0; j <= last; j++) {
					float x = 0.0f;
					for (int d = 0; d < D; d++) x += (float)q[b][h][i][d] * (float)kc[b][h][j][d];
					s[j] = x * scale;
					if (s[j] > m) m = s[j];
				}
				float l = 0.0f;
				for (int j = 0; j <= last; j++) { s[j] = expf(s[j] - m); l += s[j]; }
				const float r = 1.0f / l;
				for (int d = 0; d < D; d++) {
					float a = 0.0f;
					for (int j = 0; j <= last; j++) a += s[j] * (float)vc[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a * r);
				}
			}
}
