/* Someone who skips the local accumulator: the output row itself is zeroed, accumulates p * v for
 * every key, and is divided by the sum at the end (two-pass max, bidirectional, fp32). */
#include <math.h>

void attn_acc_in_out(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
		     const float v[B][H][N][64], float o[B][H][N][64])
{
#pragma fuse kernel(attn_acc_in_out) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					mx = fmaxf(mx, s * 0.125f);
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = 0.0f;
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					const float p = expf(s * 0.125f - mx);
					sum += p;
					for (int d = 0; d < 64; d++) o[b][h][i][d] += p * v[b][h][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] /= sum;
			}
}
