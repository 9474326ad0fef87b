/* Chunked prefill against a KV cache that already holds Nk - Nq earlier tokens: query i sits at
 * absolute position i + (Nk - Nq) and sees keys j <= i + (Nk - Nq). The softmax in base 2 with the
 * scale folded into log2(e) once, as FlashAttention's kernels do. */
#include <math.h>
#define HEAD_DIM 128

void chunk_prefill(int B, int H, int Nq, int Nk, const _Float16 q[B][H][Nq][HEAD_DIM],
		   const _Float16 kcache[B][H][Nk][HEAD_DIM], const _Float16 vcache[B][H][Nk][HEAD_DIM],
		   _Float16 out[B][H][Nq][HEAD_DIM])
{
	const float scale_log2 = 1.4426950408889634f / sqrtf((float)HEAD_DIM);
#pragma fuse kernel(chunk_prefill) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < Nq; i++) {
				float row_max = -INFINITY;
				float row_sum = 0.0f;
				float o[HEAD_DIM];
				for (int d = 0; d < HEAD_DIM; d++) o[d] = 0.0f;
				for (int j = 0; j <= i + (Nk - Nq); j++) {
					float qk = 0.0f;
					for (int d = 0; d < HEAD_DIM; d++) qk += (float)q[b][h][i][d] * (float)kcache[b][h][j][d];
					qk *= scale_log2;
					const float new_max = fmaxf(row_max, qk);
					const float corr = exp2f(row_max - new_max);
					const float p = exp2f(qk - new_max);
					row_sum = row_sum * corr + p;
					for (int d = 0; d < HEAD_DIM; d++) o[d] = o[d] * corr + p * (float)vcache[b][h][j][d];
					row_max = new_max;
				}
				const float inv = 1.0f / row_sum;
				for (int d = 0; d < HEAD_DIM; d++) out[b][h][i][d] = (_Float16)(o[d] * inv);
			}
}
