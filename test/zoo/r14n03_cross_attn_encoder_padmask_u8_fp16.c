/* Whisper/T5 decoder cross-attention: decoder queries (Tq) against encoder keys (S), with the
 * encoder's padding mask as uint8 (1 = keep). Scale applied to q first. */
#include <math.h>
#include <stdint.h>
void xattn(int B, int H, int Tq, int S, const _Float16 q[B][H][Tq][64], const _Float16 k[B][H][S][64],
	   const _Float16 v[B][H][S][64], const uint8_t enc_mask[B][S], _Float16 o[B][H][Tq][64])
{
#pragma fuse kernel(xattn) parallel(b, h, t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int t = 0; t < Tq; t++) {
				float qs[64];
				for (int d = 0; d < 64; d++) qs[d] = (float)q[b][h][t][d] * 0.125f;
				float mx = -INFINITY;
				for (int s = 0; s < S; s++) {
					if (!enc_mask[b][s]) continue;
					float a = 0.0f;
					for (int d = 0; d < 64; d++) a += qs[d] * (float)k[b][h][s][d];
					mx = fmaxf(mx, a);
				}
				float den = 0.0f, acc[64] = {0};
				for (int s = 0; s < S; s++) {
					if (!enc_mask[b][s]) continue;
					float a = 0.0f;
					for (int d = 0; d < 64; d++) a += qs[d] * (float)k[b][h][s][d];
					float p = expf(a - mx);
					den += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][h][s][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][t][d] = (_Float16)(acc[d] / den);
			}
}
