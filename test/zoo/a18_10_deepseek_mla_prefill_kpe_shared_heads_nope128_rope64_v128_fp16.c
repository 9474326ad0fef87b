/* DeepSeek-V2 MLA prefill, non-absorbed: per head q_nope.k_nope over 128 plus q_pe.k_pe over 64,
 * where k_pe is one rotary key per token shared by every head ([B][N][64]); values 128 wide;
 * softmax_scale = 1/sqrt(192) passed in; causal by condition. */
#include <math.h>

void mla_prefill(int B, int H, int N, const _Float16 q_nope[B][H][N][128], const _Float16 q_pe[B][H][N][64],
		 const _Float16 k_nope[B][H][N][128], const _Float16 k_pe[B][N][64], const _Float16 v[B][H][N][128],
		 _Float16 out[B][H][N][128], float softmax_scale)
{
#pragma fuse kernel(mla_prefill) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float scores[N];
				float m = -INFINITY;
				for (int j = 0; j < N; j++) {
					float nope = 0.0f, rope = 0.0f;
					for (int c = 0; c < 128; c++) nope += (float)q_nope[b][h][i][c] * (float)k_nope[b][h][j][c];
					for (int r = 0; r < 64; r++) rope += (float)q_pe[b][h][i][r] * (float)k_pe[b][j][r];
					float sc = (nope + rope) * softmax_scale;
					if (j > i) sc = -INFINITY;
					scores[j] = sc;
					m = fmaxf(m, sc);
				}
				float den = 0.0f;
				for (int j = 0; j < N; j++) { scores[j] = expf(scores[j] - m); den += scores[j]; }
				for (int c = 0; c < 128; c++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += scores[j] * (float)v[b][h][j][c];
					out[b][h][i][c] = (_Float16)(acc / den);
				}
			}
}
