/* GQA with KV heads interleaved (h % KVH, as some Megatron checkpoints lay them out). */
#include <math.h>
void gqa_mod(int B, int H, int KVH, int N, const _Float16 q[B][H][N][64], const _Float16 k[B][KVH][N][64],
	     const _Float16 v[B][KVH][N][64], _Float16 o[B][H][N][64])
{
#pragma fuse kernel(gqa_mod) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				const int kh = h % KVH;
				float m = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float s = 0;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][kh][j][d];
					m = fmaxf(m, s * 0.125f);
				}
				float l = 0, acc[64] = {0};
				for (int j = 0; j <= i; j++) {
					float s = 0;
					for (int d = 0; d < 64; d++) s += (float)q[b][h][i][d] * (float)k[b][kh][j][d];
					float p = expf(s * 0.125f - m);
					l += p;
					for (int d = 0; d < 64; d++) acc[d] += p * (float)v[b][kh][j][d];
				}
				for (int d = 0; d < 64; d++) o[b][h][i][d] = (_Float16)(acc[d] / l);
			}
}
