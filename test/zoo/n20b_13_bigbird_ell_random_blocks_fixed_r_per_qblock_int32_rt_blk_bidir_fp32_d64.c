/* BigBird-style random attention as an ELL list: every query block attends R key blocks listed
 * in rand_attn[H][NQB][R] (int32, may repeat), run-time block size blk, no causality; the
 * student keeps scores per listed block in a [R * blk] scratch row. */
#include <math.h>
#include <stdint.h>

void bigbird_rand(int B, int H, int NQB, int NKB, int R, int blk, const float q[B][H][NQB * blk][64],
		const float k[B][H][NKB * blk][64], const float v[B][H][NKB * blk][64],
		const int32_t rand_attn[H][NQB][R], float out[B][H][NQB * blk][64])
{
#pragma fuse kernel(bigbird_rand) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < NQB * blk; i++) {
				float sc[R * blk];
				float mx = -INFINITY;
				for (int r = 0; r < R; r++)
					for (int jj = 0; jj < blk; jj++) {
						const int j = rand_attn[h][i / blk][r] * blk + jj;
						float s = 0.0f;
						for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
						sc[r * blk + jj] = s * 0.125f;
						if (sc[r * blk + jj] > mx) mx = sc[r * blk + jj];
					}
				float sum = 0.0f;
				for (int r = 0; r < R; r++)
					for (int jj = 0; jj < blk; jj++) {
						sc[r * blk + jj] = expf(sc[r * blk + jj] - mx);
						sum += sc[r * blk + jj];
					}
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int r = 0; r < R; r++)
						for (int jj = 0; jj < blk; jj++)
							a += sc[r * blk + jj] * v[b][h][rand_attn[h][i / blk][r] * blk + jj][d];
					out[b][h][i][d] = a / sum;
				}
			}
}
