/* paged_decode.c: decode attention over a paged KV cache (vLLM / FlashInfer layout): the
 * cache is a pool of NB pages of PAGE tokens, kc[page][slot][head][d], and the block
 * table bt[b][p] names the page that holds tokens p * PAGE ... p * PAGE + PAGE - 1 of
 * sequence b. Every sequence holds L tokens here (paged_decode_lens.c: a length per
 * sequence). An index out of range is the caller's contract, as in every engine.
 * Style: scores stored in s[L] with the max taken in the score loop, P.V with j outside d.
 * fp16 storage, fp32 math, D = 128, PAGE = 16; B = 1 ... 64, L = 1K ... 32K. */
#include <math.h>

#define D 128
#define PAGE 16

void paged_decode(int B, int H, int L, int NB, int MAXP, float scale,
		  const _Float16 q[B][H][D], const _Float16 kc[NB][PAGE][H][D],
		  const _Float16 vc[NB][PAGE][H][D], const int bt[B][MAXP], _Float16 o[B][H][D])
{
#pragma fuse kernel(paged_decode) parallel(b, h) tile(j:64) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < D; d++)
					dot += (float)q[b][h][d] * (float)kc[bt[b][j / PAGE]][j % PAGE][h][d];
				s[j] = dot * scale;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			float acc[D];
			for (int d = 0; d < D; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float p = expf(s[j] - m);
				l += p;
				for (int d = 0; d < D; d++)
					acc[d] += p * (float)vc[bt[b][j / PAGE]][j % PAGE][h][d];
			}
			for (int d = 0; d < D; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
