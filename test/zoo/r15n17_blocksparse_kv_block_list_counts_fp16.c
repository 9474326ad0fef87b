/* Block-sparse attention as a list of key blocks per query block (BigBird / Triton blocksparse
 * "lut" form): kv_idx[h][qb][n] for n < kv_cnt[h][qb]; block size 64 constant; fp16, D=64.
 * Keys visited as blk*64 + jj. */
#include <math.h>
#include <stdint.h>

void bsa_lut(int H, int N, int NQB, int MAXK, const int32_t kv_cnt[H][NQB],
	     const int32_t kv_idx[H][NQB][MAXK], const _Float16 q[H][N][64], const _Float16 k[H][N][64],
	     const _Float16 v[H][N][64], _Float16 o[H][N][64])
{
#pragma fuse kernel(bsa_lut) parallel(h, i)
	for (int h = 0; h < H; h++)
		for (int i = 0; i < N; i++) {
			const int qb = i / 64;
			float m = -INFINITY, l = 0.0f, acc[64];
			for (int d = 0; d < 64; d++) acc[d] = 0.0f;
			for (int n = 0; n < kv_cnt[h][qb]; n++) {
				const int kb = kv_idx[h][qb][n];
				for (int jj = 0; jj < 64; jj++) {
					const int j = kb * 64 + jj;
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += (float)q[h][i][d] * (float)k[h][j][d];
					s *= 0.125f;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++) acc[d] = acc[d] * c + p * (float)v[h][j][d];
					m = mn;
				}
			}
			for (int d = 0; d < 64; d++) o[h][i][d] = (_Float16)(acc[d] / l);
		}
}
