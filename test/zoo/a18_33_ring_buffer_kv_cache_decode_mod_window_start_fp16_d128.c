/* Mistral's rolling buffer cache at decode: the cache holds the last W tokens in a ring; sequence
 * b has n_tok[b] tokens so far, the oldest kept one at slot (n_tok[b] - len) % W; keys read at
 * (first + j) % W in order. */
#include <math.h>

void ring_decode(int B, int H, int W, const int n_tok[B], const _Float16 q[B][H][128], const _Float16 kc[B][H][W][128],
		 const _Float16 vc[B][H][W][128], _Float16 o[B][H][128])
{
#pragma fuse kernel(ring_decode) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			const int len = n_tok[b] < W ? n_tok[b] : W;
			const int first = (n_tok[b] - len) % W;
			float m = -INFINITY, l = 0.0f, acc[128];
			for (int d = 0; d < 128; d++) acc[d] = 0.0f;
			for (int j = 0; j < len; j++) {
				const int slot = (first + j) % W;
				float s = 0.0f;
				for (int d = 0; d < 128; d++) s += (float)q[b][h][d] * (float)kc[b][h][slot][d];
				s *= 0.08838834764831845f;
				const float mn = fmaxf(m, s), c = expf(m - mn), p = expf(s - mn);
				l = l * c + p;
				for (int d = 0; d < 128; d++) acc[d] = acc[d] * c + p * (float)vc[b][h][slot][d];
				m = mn;
			}
			for (int d = 0; d < 128; d++) o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
