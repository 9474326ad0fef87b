/* pf_blocksparse_bitmask_layout_causal_d64_fp16.c: block-sparse causal prefill whose layout is a byte of\n * bits per (head, query block): key block kb is visited when bit kb % 8 of layout[h][i / BLK]\n * is set, tested with `>>` and `&` in an `if (!...) continue;` in both passes; the row's\n * output is 0 when it visits nothing (l > 0 ? acc / l : 0). uint8_t layout, #define BLK 64. */
#include <math.h>
#include <stdint.h>
#define BLK 64
void bs_attn(int H, int N, int NB, const uint8_t layout[H][NB], float scale,
             const _Float16 q[H][N][64], const _Float16 k[H][N][64], const _Float16 v[H][N][64], _Float16 o[H][N][64])
{
#pragma fuse kernel(bs_attn) parallel(h, i) rolling(j)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			float m = -INFINITY, l = 0.0f, acc[64] = {0};
			for (int j = 0; j <= i; j++) {
				if (!((layout[h][i / BLK] >> ((j / BLK) % 8)) & 1))
					continue;
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += (float)q[h][i][d] * (float)k[h][j][d];
				m = fmaxf(m, s * scale);
			}
			for (int j = 0; j <= i; j++) {
				if (!((layout[h][i / BLK] >> ((j / BLK) % 8)) & 1))
					continue;
				float s = 0.0f;
				for (int d = 0; d < 64; d++)
					s += (float)q[h][i][d] * (float)k[h][j][d];
				float p = expf(s * scale - m);
				l += p;
				for (int d = 0; d < 64; d++)
					acc[d] += p * (float)v[h][j][d];
			}
			for (int d = 0; d < 64; d++)
				o[h][i][d] = (_Float16)(l > 0.0f ? acc[d] / l : 0.0f);
		}
}
