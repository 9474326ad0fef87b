/* Memorizing-Transformer-style kNN attention: each query i of head h attends only to the
 * TOPK memory slots retrieved for it (knn_idx[b][h][i][t], int64, from a faiss search)
 * in the memory bank mem_k / mem_v [b][h][M][64]. A gather of keys per query row. fp16. */
#include <math.h>
#include <stdint.h>

void knn_mem_attn(int B, int H, int N, int M, int TOPK, const _Float16 q[B][H][N][64], const _Float16 mem_k[B][H][M][64],
		  const _Float16 mem_v[B][H][M][64], const int64_t knn_idx[B][H][N][TOPK], _Float16 o[B][H][N][64])
{
	const float scale = 0.125f;
#pragma fuse kernel(knn_mem_attn) parallel(b, h, i) rolling(t)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float m = -INFINITY, l = 0.0f, acc[64] = {0};
				for (int t = 0; t < TOPK; t++) {
					const int64_t slot = knn_idx[b][h][i][t];
					float s = 0.0f;
					for (int d = 0; d < 64; d++)
						s += (float)q[b][h][i][d] * (float)mem_k[b][h][slot][d];
					s *= scale;
					float mn = fmaxf(m, s);
					float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < 64; d++)
						acc[d] = acc[d] * c + p * (float)mem_v[b][h][slot][d];
					m = mn;
				}
				for (int d = 0; d < 64; d++)
					o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
