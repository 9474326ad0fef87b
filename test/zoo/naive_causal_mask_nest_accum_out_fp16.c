/* naive_causal_mask_nest_accum_out_fp16.c: causal attention as seven nests over the
 * query rows, a NumPy program translated line by line: S = Q K^T / 8, the future masked
 * in a nest of its own, row maxima into rowmax[], exponentials and row sums into
 * rowsum[], an output accumulator zeroed, accumulated j-outer (Ot[i][d] += S[i][j] *
 * V[j][d]) and divided into O. Style: fp16 tensors, float scratch of run-time size declared
 * together, head dim 64 as a literal, parallel(b, h), no strategy clause. */
#include <math.h>
void attn(int B, int H, int N, const _Float16 Q[B][H][N][64], const _Float16 K[B][H][N][64],
	  const _Float16 V[B][H][N][64], _Float16 O[B][H][N][64])
{
#pragma fuse kernel(attn) parallel(b, h)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float S[N][N], rowmax[N], rowsum[N], Ot[N][64];
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++) {
					float a = 0;
					for (int d = 0; d < 64; d++)
						a += (float)Q[b][h][i][d] * (float)K[b][h][j][d];
					S[i][j] = a * 0.125f;
				}
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++)
					if (j > i)
						S[i][j] = -INFINITY;
			for (int i = 0; i < N; i++) {
				rowmax[i] = -INFINITY;
				for (int j = 0; j < N; j++)
					rowmax[i] = fmaxf(rowmax[i], S[i][j]);
			}
			for (int i = 0; i < N; i++) {
				rowsum[i] = 0;
				for (int j = 0; j < N; j++) {
					S[i][j] = expf(S[i][j] - rowmax[i]);
					rowsum[i] += S[i][j];
				}
			}
			for (int i = 0; i < N; i++)
				for (int d = 0; d < 64; d++)
					Ot[i][d] = 0;
			for (int i = 0; i < N; i++)
				for (int j = 0; j < N; j++)
					for (int d = 0; d < 64; d++)
						Ot[i][d] += S[i][j] * (float)V[b][h][j][d];
			for (int i = 0; i < N; i++)
				for (int d = 0; d < 64; d++)
					O[b][h][i][d] = (_Float16)(Ot[i][d] / rowsum[i]);
		}
}
